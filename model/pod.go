package model

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PodCondition returns the condition of type t, or nil.
func PodCondition(status *corev1.PodStatus, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether the pod's Ready condition is True.
func IsPodReady(p *corev1.Pod) bool {
	c := PodCondition(&p.Status, corev1.PodReady)
	return c != nil && c.Status == corev1.ConditionTrue
}

// IsPodAvailable reports whether the pod has been ready for at least
// minReadySeconds at now, as upstream counts available replicas.
func IsPodAvailable(p *corev1.Pod, minReadySeconds int32, now time.Time) bool {
	c := PodCondition(&p.Status, corev1.PodReady)
	if c == nil || c.Status != corev1.ConditionTrue {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	min := time.Duration(minReadySeconds) * time.Second
	return !c.LastTransitionTime.IsZero() && c.LastTransitionTime.Add(min).Before(now)
}

// IsPodActive reports whether a controller still counts the pod as one of its
// replicas: not finished and not being deleted.
func IsPodActive(p *corev1.Pod) bool {
	return p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed && p.DeletionTimestamp == nil
}

// LabelsOrOwnersChanged reports whether an update changed what selects a pod
// or who controls it. Controllers ask this of every pod update, most of which
// are kubelet status writes, so it compares fields rather than reflecting.
// A status write that shares the stored pod's metadata shares its label map
// and owner references, and is answered without reading either.
func LabelsOrOwnersChanged(old, cur *corev1.Pod) bool {
	if sameMap(old.Labels, cur.Labels) && sameSlice(old.OwnerReferences, cur.OwnerReferences) {
		return false
	}
	return !maps.Equal(old.Labels, cur.Labels) || !slices.EqualFunc(old.OwnerReferences, cur.OwnerReferences, sameOwnerReference)
}

// sameMap reports whether a and b are the same map (not merely equal ones).
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// sameSlice reports whether a and b are the same elements in memory.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func sameOwnerReference(a, b metav1.OwnerReference) bool {
	return a.UID == b.UID && a.Name == b.Name && a.Kind == b.Kind && a.APIVersion == b.APIVersion &&
		sameBool(a.Controller, b.Controller) && sameBool(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

func sameBool(a, b *bool) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// nodeUnreachablePodReason is the reason the node lifecycle controller gives
// a pod it deletes from a node that stopped answering (k8s.io/kubernetes
// pkg/util/node.NodeUnreachablePodReason).
const nodeUnreachablePodReason = "NodeLost"

// PodStatusWord is the STATUS column of `kubectl get pods`, worked out as
// kubectl's printer does (printPod in k8s.io/kubernetes
// pkg/printers/internalversion): the pod's phase or reason, then the first
// init container still at work, then the containers' waiting or terminated
// reasons, and Terminating for a pod being deleted that has not finished.
func PodStatusWord(p *corev1.Pod) string {
	reason := string(p.Status.Phase)
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Reason == corev1.PodReasonSchedulingGated {
			reason = corev1.PodReasonSchedulingGated
		}
	}

	restartable := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		restartable[c.Name] = c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
	}
	initializing := false
	for i, c := range p.Status.InitContainerStatuses {
		switch {
		case c.State.Terminated != nil && c.State.Terminated.ExitCode == 0:
			continue
		case restartable[c.Name] && c.Started != nil && *c.Started:
			continue
		case c.State.Terminated != nil:
			t := c.State.Terminated
			switch {
			case t.Reason != "":
				reason = "Init:" + t.Reason
			case t.Signal != 0:
				reason = fmt.Sprintf("Init:Signal:%d", t.Signal)
			default:
				reason = fmt.Sprintf("Init:ExitCode:%d", t.ExitCode)
			}
		case c.State.Waiting != nil && c.State.Waiting.Reason != "" && c.State.Waiting.Reason != "PodInitializing":
			reason = "Init:" + c.State.Waiting.Reason
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(p.Spec.InitContainers))
		}
		initializing = true
		break
	}

	if !initializing || podInitialized(p) {
		hasRunning, errorReason := false, ""
		for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
			c := p.Status.ContainerStatuses[i]
			switch {
			case c.State.Waiting != nil && c.State.Waiting.Reason != "":
				reason = c.State.Waiting.Reason
			case c.State.Terminated != nil:
				t := c.State.Terminated
				switch {
				case t.Reason != "":
					reason = t.Reason
				case t.Signal != 0:
					reason = fmt.Sprintf("Signal:%d", t.Signal)
				default:
					reason = fmt.Sprintf("ExitCode:%d", t.ExitCode)
				}
				if t.ExitCode != 0 {
					errorReason = reason
				}
			case c.Ready && c.State.Running != nil:
				hasRunning = true
			}
		}
		// A pod some of whose containers completed while others still run
		// is Running (or NotReady), not Completed.
		if reason == "Completed" {
			switch {
			case hasRunning && IsPodReady(p):
				reason = "Running"
			case errorReason != "":
				reason = errorReason
			case hasRunning:
				reason = "NotReady"
			}
		}
	}

	terminal := p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
	switch {
	case p.DeletionTimestamp != nil && p.Status.Reason == nodeUnreachablePodReason:
		reason = "Unknown"
	case p.DeletionTimestamp != nil && !terminal:
		reason = "Terminating"
	}
	return reason
}

// podInitialized reports whether the pod's Initialized condition is True.
func podInitialized(p *corev1.Pod) bool {
	c := PodCondition(&p.Status, corev1.PodInitialized)
	return c != nil && c.Status == corev1.ConditionTrue
}

// Waiting reasons that mean a container will not start without help: the
// pod is shown as crash-looping.
var crashLoopReasons = map[string]bool{
	"CrashLoopBackOff": true,
	"ImagePullBackOff": true,
	"ErrImagePull":     true,
}

// IsCrashLoopReason reports whether a waiting reason means the container
// will not start without help.
func IsCrashLoopReason(reason string) bool { return crashLoopReasons[reason] }
