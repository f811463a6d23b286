package forecast

import (
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// ForTemplate is the Input for rolling d onto target, one of rss (the
// ReplicaSets d owns), or onto a template no ReplicaSet has run yet when
// target is nil (a set image). podReady is PodReadyTime's estimate.
func ForTemplate(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, target *appsv1.ReplicaSet, podReady time.Duration) Input {
	in := Input{
		Recreate: !model.IsRollingUpdate(d),
		Replicas: model.DesiredReplicas(d),
		PodReady: podReady,
	}
	if !in.Recreate {
		in.MaxSurge, in.MaxUnavailable = model.MaxSurge(d), model.MaxUnavailable(d)
	}
	sorted := slices.Clone(rss)
	model.SortByCreationTimestamp(sorted)
	for _, rs := range sorted {
		if rs == nil {
			continue
		}
		if target != nil && rs.UID == target.UID && rs.Name == target.Name {
			in.New, in.NewAvailable = model.SpecReplicas(rs), rs.Status.AvailableReplicas
			continue
		}
		if n := model.SpecReplicas(rs); n > 0 {
			in.Old = append(in.Old, Set{Replicas: n, Available: rs.Status.AvailableReplicas})
		}
	}
	return in
}

// PodReadyTime estimates how long a new pod of d takes to become available
// for the arithmetic: the median, over pods that are ready, of creation to
// Ready, plus minReadySeconds. It is 0 when no pod has been seen becoming
// ready.
func PodReadyTime(d *appsv1.Deployment, pods []*corev1.Pod) time.Duration {
	r := ObservedReadiness(d, pods)
	if r.Observed == 0 {
		return 0
	}
	return r.Available()
}
