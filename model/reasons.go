package model

// Condition reasons the deployment controller writes, with their upstream
// spelling (tools and people match on them).
const (
	// ReasonReplicaSetUpdated: Progressing=True, the rollout moved.
	ReasonReplicaSetUpdated = "ReplicaSetUpdated"
	// ReasonReplicaSetCreateError: Progressing=False, the new ReplicaSet could not be created.
	ReasonReplicaSetCreateError = "ReplicaSetCreateError"
	// ReasonNewReplicaSetCreated: Progressing=True, the new ReplicaSet was just created.
	ReasonNewReplicaSetCreated = "NewReplicaSetCreated"
	// ReasonFoundNewReplicaSet: Progressing=True, an existing ReplicaSet matches the template.
	ReasonFoundNewReplicaSet = "FoundNewReplicaSet"
	// ReasonNewReplicaSetAvailable: Progressing=True, the rollout is complete.
	ReasonNewReplicaSetAvailable = "NewReplicaSetAvailable"
	// ReasonProgressDeadlineExceeded: Progressing=False, no progress within progressDeadlineSeconds.
	ReasonProgressDeadlineExceeded = "ProgressDeadlineExceeded"
	// ReasonDeploymentPaused: Progressing=Unknown while paused.
	ReasonDeploymentPaused = "DeploymentPaused"
	// ReasonDeploymentResumed: Progressing=Unknown once resumed.
	ReasonDeploymentResumed = "DeploymentResumed"
	// reasonMinimumReplicasAvailable: Available=True.
	reasonMinimumReplicasAvailable = "MinimumReplicasAvailable"
	// reasonMinimumReplicasUnavailable: Available=False.
	reasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
)

// Event reasons the deployment controller records.
const (
	EventScalingReplicaSet                   = "ScalingReplicaSet"
	EventReplicaSetCreateError               = "ReplicaSetCreateError"
	EventSelectingAll                        = "SelectingAll"
	EventDeploymentRollback                  = "DeploymentRollback"
	EventDeploymentRollbackRevisionNotFound  = "DeploymentRollbackRevisionNotFound"
	EventDeploymentRollbackTemplateUnchanged = "DeploymentRollbackTemplateUnchanged"
)
