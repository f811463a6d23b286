package model

import "rollscope/model/argo"

// CanaryGateArgs are the {{args.NAME}} a guided canary's metric gate may
// use in its query, named as an Argo Rollout's analysis usually names
// them: the namespace, the deployment, and the pod-template hashes of the
// canary's pods and of the stable ones, so that a query can select the
// canary's pods by their pod-template-hash label
// (error_rate{namespace="{{args.namespace}}",pod_template_hash="{{args.canary-hash}}"}).
func CanaryGateArgs(namespace, deployment, canaryHash, stableHash string) []argo.AnalysisRunArgument {
	return []argo.AnalysisRunArgument{
		{Name: "namespace", Value: namespace},
		{Name: "deployment", Value: deployment},
		{Name: "canary-hash", Value: canaryHash},
		{Name: "stable-hash", Value: stableHash},
	}
}
