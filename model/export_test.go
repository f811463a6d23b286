package model

// Names the external tests reach that the rest of rollscope has no use for.
var (
	LastAppliedAnnotation     = lastAppliedAnnotation
	RemoveDeploymentCondition = removeDeploymentCondition
	DeploymentProgressing     = deploymentProgressing
	DeploymentTimedOut        = deploymentTimedOut
	RestorePatch              = restorePatch
)
