package model

import corev1 "k8s.io/api/core/v1"

// PodStatusesDiffer reports true when a and b surely differ under
// apimachinery's semantic equality (equality.Semantic.DeepEqual): a field a
// kubelet status write usually changes — phase, IPs, start time, a
// condition's type, status or reason, a container's name, readiness,
// restarts, start or state — has different values. It never reports true for
// equal statuses; false means only "compare them fully". The reflective
// comparison allocates for every timestamp it meets, and the embedded
// kubelet and API server ask it of every status write, almost all of which
// do change one of these fields.
func PodStatusesDiffer(a, b *corev1.PodStatus) bool {
	if a.Phase != b.Phase || a.PodIP != b.PodIP || a.HostIP != b.HostIP || (a.StartTime == nil) != (b.StartTime == nil) {
		return true
	}
	// Semantic equality takes a nil and an empty slice as equal; slices of
	// different non-zero lengths are not.
	if len(a.Conditions) != len(b.Conditions) || len(a.ContainerStatuses) != len(b.ContainerStatuses) {
		return true
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason {
			return true
		}
	}
	for i := range a.ContainerStatuses {
		x, y := &a.ContainerStatuses[i], &b.ContainerStatuses[i]
		if x.Name != y.Name || x.Ready != y.Ready || x.RestartCount != y.RestartCount ||
			(x.Started == nil) != (y.Started == nil) || (x.Started != nil && *x.Started != *y.Started) ||
			(x.State.Waiting == nil) != (y.State.Waiting == nil) ||
			(x.State.Running == nil) != (y.State.Running == nil) ||
			(x.State.Terminated == nil) != (y.State.Terminated == nil) {
			return true
		}
	}
	return false
}
