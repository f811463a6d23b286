package model

// Annotations and labels with their upstream meaning.
const (
	// RevisionAnnotation is the revision of a ReplicaSet and of its Deployment.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation lists the earlier revisions of a ReplicaSet that was rolled back to.
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// DesiredReplicasAnnotation is the Deployment's spec.replicas when the controller last scaled the ReplicaSet.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation is spec.replicas + maxSurge when the controller last scaled the ReplicaSet.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"
	// RollbackToAnnotation round-trips the deprecated extensions/v1beta1 spec.rollbackTo.
	RollbackToAnnotation = "deprecated.deployment.rollback.to"
	// ChangeCauseAnnotation is copied from a Deployment to its new ReplicaSet and shown by history.
	ChangeCauseAnnotation = "kubernetes.io/change-cause"
	// lastAppliedAnnotation is kubectl apply's record of the last applied configuration.
	lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	// RestartedAtAnnotation is set on a pod template by `kubectl rollout restart`.
	RestartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"
	// PodTemplateHashLabel tells a ReplicaSet's pods from its siblings'.
	PodTemplateHashLabel = "pod-template-hash"
	// PodDeletionCostAnnotation orders pods for scale-down (lower cost goes first).
	PodDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"
	// NeedsUpdateAnnotation marks a node whose instance group has a newer
	// spec than the one it runs (kops sets it; rollscope's node groups too).
	NeedsUpdateAnnotation = "kops.k8s.io/needs-update"
	// MirrorPodAnnotation marks static pods mirrored by a kubelet.
	MirrorPodAnnotation = "kubernetes.io/config.mirror"

	// Prefix of rollscope's own annotations, for state that must survive a restart of rollscope.
	Prefix = "rollscope.dev/"
)

// skippedAnnotations are never copied between a Deployment and its ReplicaSets.
var skippedAnnotations = map[string]bool{
	lastAppliedAnnotation:     true,
	RevisionAnnotation:        true,
	RevisionHistoryAnnotation: true,
	DesiredReplicasAnnotation: true,
	MaxReplicasAnnotation:     true,
	RollbackToAnnotation:      true,
}

// SkipCopyAnnotation reports whether key stays with its object when a template
// and its annotations move between a Deployment and a ReplicaSet.
func SkipCopyAnnotation(key string) bool { return skippedAnnotations[key] }
