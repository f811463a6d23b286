package watch

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// slimPod is p as the console's model reads it, and nothing more: a pod row
// (the glyph, READY, restarts, STATUS as kubectl prints it, reason), the
// blocker's facts, the pod detail (kubectl describe's fields), the canary's
// gates, and what workloads read of their pods (ordinals, nodes). A field model
// starts to read must be added here; TestSlimPodsShowTheSameAsFullPods fails
// until it is.
//
// Everything else a pod carries — volumes, env, probes, resources,
// tolerations, annotations, managed fields, container IDs — stays out of the
// cache; the strings kept are the decoder's own, so the rest of the decoded
// pod is garbage at once.
func slimPod(p *corev1.Pod) *corev1.Pod {
	s := &corev1.Pod{
		TypeMeta: p.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name: p.Name, Namespace: p.Namespace, UID: p.UID, ResourceVersion: p.ResourceVersion,
			CreationTimestamp: p.CreationTimestamp, DeletionTimestamp: p.DeletionTimestamp,
			DeletionGracePeriodSeconds: p.DeletionGracePeriodSeconds,
			// Labels: the detail lists them, workloads tell their
			// updated pods by them.
			Labels:          p.Labels,
			OwnerReferences: controllerRef(p.OwnerReferences),
		},
		Spec: corev1.PodSpec{
			NodeName:       p.Spec.NodeName,
			InitContainers: slimContainers(p.Spec.InitContainers, true),
			Containers:     slimContainers(p.Spec.Containers, false),
			Affinity:       pinnedNode(&p.Spec),
		},
		Status: corev1.PodStatus{
			Phase: p.Status.Phase, Reason: p.Status.Reason, Message: p.Status.Message,
			PodIP: p.Status.PodIP, QOSClass: p.Status.QOSClass, StartTime: p.Status.StartTime,
			Conditions:            slimConditions(p.Status.Conditions),
			InitContainerStatuses: slimStatuses(p.Status.InitContainerStatuses),
			ContainerStatuses:     slimStatuses(p.Status.ContainerStatuses),
		},
	}
	return s
}

// controllerRef keeps the one owner model follows: the controller.
func controllerRef(refs []metav1.OwnerReference) []metav1.OwnerReference {
	for _, r := range refs {
		if r.Controller != nil && *r.Controller {
			return []metav1.OwnerReference{{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: r.UID, Controller: r.Controller}}
		}
	}
	return nil
}

// slimContainers keeps names and images; an init container also keeps its
// restart policy, which tells a sidecar (kubectl's STATUS skips a started one).
func slimContainers(cs []corev1.Container, init bool) []corev1.Container {
	if cs == nil {
		return nil
	}
	out := make([]corev1.Container, len(cs))
	for i, c := range cs {
		out[i] = corev1.Container{Name: c.Name, Image: c.Image}
		if init {
			out[i].RestartPolicy = c.RestartPolicy
		}
	}
	return out
}

// pinnedNode is the node affinity that tells which node an unbound daemon
// pod is for (model.DaemonPodNode); nil once the pod is bound, when its
// nodeName says it.
func pinnedNode(s *corev1.PodSpec) *corev1.Affinity {
	a := s.Affinity
	if s.NodeName != "" || a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return nil
	}
	var terms []corev1.NodeSelectorTerm
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		if len(t.MatchFields) > 0 {
			terms = append(terms, corev1.NodeSelectorTerm{MatchFields: t.MatchFields})
		}
	}
	if terms == nil {
		return nil
	}
	return &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: terms},
	}}
}

func slimConditions(cs []corev1.PodCondition) []corev1.PodCondition {
	if cs == nil {
		return nil
	}
	out := make([]corev1.PodCondition, len(cs))
	for i, c := range cs {
		out[i] = corev1.PodCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message, LastTransitionTime: c.LastTransitionTime}
	}
	return out
}

// slimStatuses keeps what a container's row and describe show: state, last
// state, readiness, restarts, the image it runs, whether it started.
func slimStatuses(ss []corev1.ContainerStatus) []corev1.ContainerStatus {
	if ss == nil {
		return nil
	}
	out := make([]corev1.ContainerStatus, len(ss))
	for i, s := range ss {
		out[i] = corev1.ContainerStatus{
			Name: s.Name, Image: s.Image, Ready: s.Ready, RestartCount: s.RestartCount, Started: s.Started,
			State: slimState(s.State), LastTerminationState: slimState(s.LastTerminationState),
		}
	}
	return out
}

func slimState(s corev1.ContainerState) corev1.ContainerState {
	if t := s.Terminated; t != nil {
		// The container ID is the longest string here and nobody reads it.
		s.Terminated = &corev1.ContainerStateTerminated{ExitCode: t.ExitCode, Signal: t.Signal, Reason: t.Reason,
			Message: t.Message, StartedAt: t.StartedAt, FinishedAt: t.FinishedAt}
	}
	return s
}

// slimEvent is e as model reads it: what it is about, its words, who said
// it, how often and when.
func slimEvent(e *corev1.Event) *corev1.Event {
	s := &corev1.Event{
		TypeMeta: e.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name: e.Name, Namespace: e.Namespace, UID: e.UID, ResourceVersion: e.ResourceVersion,
			CreationTimestamp: e.CreationTimestamp,
		},
		InvolvedObject: corev1.ObjectReference{
			Kind: e.InvolvedObject.Kind, Namespace: e.InvolvedObject.Namespace, Name: e.InvolvedObject.Name, UID: e.InvolvedObject.UID,
		},
		Type: e.Type, Reason: e.Reason, Message: e.Message,
		Source:              corev1.EventSource{Component: e.Source.Component},
		ReportingController: e.ReportingController,
		FirstTimestamp:      e.FirstTimestamp, LastTimestamp: e.LastTimestamp, EventTime: e.EventTime,
		Count: e.Count,
	}
	if e.Series != nil {
		s.Series = &corev1.EventSeries{Count: e.Series.Count}
	}
	return s
}
