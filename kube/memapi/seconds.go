package memapi

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// A real API server keeps metav1.Time to the second: both its JSON
// (RFC 3339 without fractions) and its protobuf form (seconds only) drop the
// rest on the way to etcd, so every reader sees whole seconds. Controllers
// compare those times with the clock — a pod's Ready transition plus
// minReadySeconds, a Progressing condition's last update plus the progress
// deadline — so keeping the fractions would make the embedded cluster's
// availability and deadlines fire up to a second later than a real one's.
// toSeconds truncates the times of the kinds rollscope's controllers read,
// as storing them does. metav1.MicroTime (an Event's eventTime) keeps its
// microseconds, as it does upstream.
func toSeconds(obj runtime.Object, m metav1.Object, last *lastTimes) {
	if ts := m.GetCreationTimestamp(); !ts.IsZero() {
		m.SetCreationTimestamp(truncated(ts))
	}
	if ts := m.GetDeletionTimestamp(); ts != nil {
		t := truncated(*ts)
		m.SetDeletionTimestamp(&t)
	}
	switch o := obj.(type) {
	case *corev1.Pod:
		podToSeconds(&o.Status, last)
	case *appsv1.Deployment:
		for i := range o.Status.Conditions {
			c := &o.Status.Conditions[i]
			c.LastUpdateTime, c.LastTransitionTime = truncated(c.LastUpdateTime), truncated(c.LastTransitionTime)
		}
	case *appsv1.ReplicaSet:
		for i := range o.Status.Conditions {
			o.Status.Conditions[i].LastTransitionTime = truncated(o.Status.Conditions[i].LastTransitionTime)
		}
	case *corev1.ReplicationController:
		for i := range o.Status.Conditions {
			o.Status.Conditions[i].LastTransitionTime = truncated(o.Status.Conditions[i].LastTransitionTime)
		}
	case *corev1.Node:
		for i := range o.Status.Conditions {
			c := &o.Status.Conditions[i]
			c.LastHeartbeatTime, c.LastTransitionTime = truncated(c.LastHeartbeatTime), truncated(c.LastTransitionTime)
		}
		for i := range o.Spec.Taints {
			if o.Spec.Taints[i].TimeAdded != nil {
				t := truncated(*o.Spec.Taints[i].TimeAdded)
				o.Spec.Taints[i].TimeAdded = &t
			}
		}
	case *corev1.Event:
		o.FirstTimestamp, o.LastTimestamp = truncated(o.FirstTimestamp), truncated(o.LastTimestamp)
	case *policyv1.PodDisruptionBudget:
		for i := range o.Status.Conditions {
			o.Status.Conditions[i].LastTransitionTime = truncated(o.Status.Conditions[i].LastTransitionTime)
		}
		for name, t := range o.Status.DisruptedPods {
			o.Status.DisruptedPods[name] = truncated(t)
		}
	}
}

// lastTimes are the last pod start time and running container state that
// podToSeconds truncated: a pod (container) started in the same second,
// exactly the same time.Time, zone included, shares them, as pods started
// together do at scale.
type lastTimes struct {
	start   *metav1.Time
	running *corev1.ContainerStateRunning
}

// podToSeconds truncates a pod status's times, sharing them through last.
func podToSeconds(s *corev1.PodStatus, last *lastTimes) {
	// A new StartTime only when it has fractions: the pointer may be shared
	// with the stored pod's, so it is replaced rather than changed, and every
	// status write of a running pod carries the whole second stored before.
	if s.StartTime != nil && hasFractions(*s.StartTime) {
		t := truncated(*s.StartTime)
		if last.start == nil || *last.start != t {
			last.start = &t
		}
		s.StartTime = last.start
	}
	// The conditions and container states may be shared with the stored
	// pod's too (a deletion's last version shares its status): they are
	// written only when they have fractions, which a stored time never has.
	for i := range s.Conditions {
		c := &s.Conditions[i]
		truncate(&c.LastProbeTime)
		truncate(&c.LastTransitionTime)
	}
	for _, list := range [][]corev1.ContainerStatus{s.InitContainerStatuses, s.ContainerStatuses, s.EphemeralContainerStatuses} {
		for i := range list {
			stateToSeconds(&list[i].State, last)
			stateToSeconds(&list[i].LastTerminationState, nil)
		}
	}
}

// stateToSeconds truncates a container state's times. A running state with
// fractions is the writer's own (a stored one has none), so it may be
// replaced by the last one truncated when identical (last, when not nil).
func stateToSeconds(s *corev1.ContainerState, last *lastTimes) {
	if r := s.Running; r != nil && hasFractions(r.StartedAt) {
		r.StartedAt = truncated(r.StartedAt)
		if last != nil {
			if last.running == nil || *last.running != *r {
				last.running = r
			}
			s.Running = last.running
		}
	}
	if t := s.Terminated; t != nil {
		truncate(&t.StartedAt)
		truncate(&t.FinishedAt)
	}
}

// truncate sets *t to whole seconds, writing only when that changes it.
func truncate(t *metav1.Time) {
	if hasFractions(*t) {
		*t = truncated(*t)
	}
}

// hasFractions reports whether truncated would change t: a fraction of a
// second, or a monotonic clock reading, which truncating drops.
func hasFractions(t metav1.Time) bool {
	return !t.IsZero() && (t.Nanosecond() != 0 || t.Time != t.Round(0))
}

func truncated(t metav1.Time) metav1.Time {
	if t.IsZero() {
		return t
	}
	return metav1.NewTime(t.Truncate(1e9))
}
