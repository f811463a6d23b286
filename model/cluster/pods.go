package cluster

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// containerCreating is the waiting reason of a container being set up on its node.
const containerCreating = "ContainerCreating"

// podRow is the pod as the glyph grid shows it.
func podRow(p *corev1.Pod) PodRow {
	var ready int
	var restarts int32
	// By index: a ContainerStatus is large, and every pod update comes here.
	for i := range p.Status.ContainerStatuses {
		cs := &p.Status.ContainerStatuses[i]
		if cs.Ready {
			ready++
		}
		restarts = max(restarts, cs.RestartCount)
	}
	for i := range p.Status.InitContainerStatuses {
		restarts = max(restarts, p.Status.InitContainerStatuses[i].RestartCount)
	}
	return PodRow{
		Name:     p.Name,
		Node:     p.Spec.NodeName,
		Phase:    string(p.Status.Phase),
		State:    podState(p),
		Ready:    strconv.Itoa(ready) + "/" + strconv.Itoa(len(p.Spec.Containers)),
		Restarts: restarts,
		Created:  p.CreationTimestamp.Time,
		Reason:   podReason(p),
		Status:   model.PodStatusWord(p),
	}
}

// podState picks the pod's glyph. The order is the operator's: a pod being
// deleted is on its way out whatever else it says, a finished pod will not
// come back, a crash loop needs attention before anything merely slow.
func podState(p *corev1.Pod) PodState {
	switch {
	case p.DeletionTimestamp != nil:
		return PodTerminating
	case p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded:
		return PodFailed
	case waitingFor(p, model.IsCrashLoopReason):
		return PodCrashLoop
	}
	creating := waitingFor(p, func(r string) bool { return r == containerCreating })
	switch {
	case !scheduled(p) || (p.Status.Phase == corev1.PodPending && !creating):
		return PodPending
	case creating:
		return PodCreating
	case !model.IsPodReady(p):
		return PodNotReady
	}
	return PodReady
}

// scheduled reports whether the pod is bound to a node and the scheduler
// has not said otherwise.
func scheduled(p *corev1.Pod) bool {
	if p.Spec.NodeName == "" {
		return false
	}
	c := model.PodCondition(&p.Status, corev1.PodScheduled)
	return c == nil || c.Status != corev1.ConditionFalse
}

// waitingFor reports whether any container, init containers included, waits
// for a reason match accepts.
func waitingFor(p *corev1.Pod, match func(reason string) bool) bool {
	for _, statuses := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for i := range statuses {
			if w := statuses[i].State.Waiting; w != nil && match(w.Reason) {
				return true
			}
		}
	}
	return false
}

// podReason is the most telling reason the pod gives: a crash-loop reason,
// then any container's waiting reason, then a failed init container's or a
// container's terminated reason, then an Unschedulable condition, then the
// pod's own reason (Evicted, NodeLost, ...). "" when it gives none.
func podReason(p *corev1.Pod) string {
	statuses := [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses}
	var waiting string
	for _, list := range statuses {
		for _, cs := range list {
			if w := cs.State.Waiting; w != nil && w.Reason != "" {
				if model.IsCrashLoopReason(w.Reason) {
					return w.Reason
				}
				if waiting == "" {
					waiting = w.Reason
				}
			}
		}
	}
	if waiting != "" {
		return waiting
	}
	for i, list := range statuses {
		for _, cs := range list {
			t := cs.State.Terminated
			// An init container that finished cleanly did its job.
			if t == nil || t.Reason == "" || (i == 0 && t.ExitCode == 0) {
				continue
			}
			return t.Reason
		}
	}
	if c := model.PodCondition(&p.Status, corev1.PodScheduled); c != nil && c.Status == corev1.ConditionFalse && c.Reason != "" {
		return c.Reason
	}
	return p.Status.Reason
}

// PodTally counts a ReplicaSet's pods as its controller does: Active are
// the replicas it counts (status.replicas), Terminating are being deleted
// and Finished have exited for good; neither of the last two is a replica.
type PodTally struct {
	Active, Terminating, Finished int
}

// TallyPods counts pods by what they are to their ReplicaSet.
func TallyPods(pods []PodRow) PodTally {
	var t PodTally
	for _, p := range pods {
		switch p.State {
		case PodTerminating:
			t.Terminating++
		case PodFailed:
			t.Finished++
		default:
			t.Active++
		}
	}
	return t
}
