package cluster

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// PodDetail is one pod as `kubectl describe pod` shows it: what the pod
// detail view draws.
type PodDetail struct {
	Namespace, Name string
	Node            string // "" while unscheduled
	Created         time.Time
	Started         time.Time // status.startTime; zero until the kubelet has it
	Labels          []string  // "key=value", sorted
	// Status is what kubectl describe prints as Status: the phase, or
	// "Terminating" once deleted; Reason and Message the pod's own.
	Status, Reason, Message string
	// Deleting is when the pod was deleted, Grace its grace period in seconds.
	Deleting   time.Time
	Grace      int64
	IP         string
	QoS        string
	Owner      string // "ReplicaSet/web-7b7d": Controlled By
	Containers []ContainerDetail
	Conditions []PodConditionRow
	Events     []EventRow // oldest first
}

// ContainerDetail is one container of a pod, init containers first.
type ContainerDetail struct {
	Name, Image string
	Init        bool
	State       ContainerStateRow
	LastState   ContainerStateRow // Kind "" when there is none
	Ready       bool
	Restarts    int32
}

// ContainerStateRow is a container's state: Kind Running, Waiting or
// Terminated (kubectl's words), with its reason, message, exit code and
// times.
type ContainerStateRow struct {
	Kind, Reason, Message string
	ExitCode              int32
	Started, Finished     time.Time
}

// PodConditionRow is one pod condition.
type PodConditionRow struct {
	Type, Status, Reason, Message string
	Since                         time.Time // lastTransitionTime
}

// EventRow is one event about an object, as kubectl describe lists them.
type EventRow struct {
	Type, Reason, From, Message string
	Count                       int32
	First, Last                 time.Time
}

// Pod is the pod's detail, or false when it is not in the picture.
func (c *Cluster) Pod(namespace, name string) (PodDetail, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	pe := c.pods[objectKey(namespace, name)]
	if pe == nil {
		return PodDetail{}, false
	}
	return podDetail(pe.pod, c.podEvents(namespace, name)), true
}

// podDetail is p and the events about it as describe shows them.
func podDetail(p *corev1.Pod, events []*corev1.Event) PodDetail {
	d := PodDetail{
		Namespace: p.Namespace, Name: p.Name, Node: p.Spec.NodeName, Created: p.CreationTimestamp.Time,
		Status: string(p.Status.Phase), Reason: p.Status.Reason, Message: p.Status.Message,
		IP: p.Status.PodIP, QoS: string(p.Status.QOSClass),
	}
	if p.Status.StartTime != nil {
		d.Started = p.Status.StartTime.Time
	}
	if p.DeletionTimestamp != nil {
		// kubectl describe: "Status: Terminating (lasts 12s)".
		d.Status, d.Deleting = "Terminating", p.DeletionTimestamp.Time
		if g := p.DeletionGracePeriodSeconds; g != nil {
			d.Grace = *g
		}
	}
	for _, k := range slices.Sorted(maps.Keys(p.Labels)) {
		d.Labels = append(d.Labels, k+"="+p.Labels[k])
	}
	if ref := controllerOf(p); ref != nil {
		d.Owner = ref.Kind + "/" + ref.Name
	}
	images := map[string]string{}
	for _, list := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for _, ct := range list {
			images[ct.Name] = ct.Image
		}
	}
	add := func(specs []corev1.Container, statuses []corev1.ContainerStatus, init bool) {
		byName := map[string]*corev1.ContainerStatus{}
		for i := range statuses {
			byName[statuses[i].Name] = &statuses[i]
		}
		for _, ct := range specs {
			cd := ContainerDetail{Name: ct.Name, Image: ct.Image, Init: init, State: ContainerStateRow{Kind: "Waiting"}}
			if cs := byName[ct.Name]; cs != nil {
				cd.State, cd.LastState = stateRow(cs.State), stateRow(cs.LastTerminationState)
				cd.Ready, cd.Restarts = cs.Ready, cs.RestartCount
				if cs.Image != "" {
					cd.Image = cs.Image
				}
			}
			d.Containers = append(d.Containers, cd)
		}
	}
	add(p.Spec.InitContainers, p.Status.InitContainerStatuses, true)
	add(p.Spec.Containers, p.Status.ContainerStatuses, false)
	for _, c := range p.Status.Conditions {
		d.Conditions = append(d.Conditions, PodConditionRow{
			Type: string(c.Type), Status: string(c.Status), Reason: c.Reason, Message: c.Message, Since: c.LastTransitionTime.Time,
		})
	}
	d.Events = eventRows(events, p.UID)
	return d
}

func stateRow(s corev1.ContainerState) ContainerStateRow {
	switch {
	case s.Running != nil:
		return ContainerStateRow{Kind: "Running", Started: s.Running.StartedAt.Time}
	case s.Terminated != nil:
		t := s.Terminated
		return ContainerStateRow{Kind: "Terminated", Reason: t.Reason, Message: t.Message, ExitCode: t.ExitCode,
			Started: t.StartedAt.Time, Finished: t.FinishedAt.Time}
	case s.Waiting != nil:
		return ContainerStateRow{Kind: "Waiting", Reason: s.Waiting.Reason, Message: s.Waiting.Message}
	}
	return ContainerStateRow{}
}

// eventRows are the events about the object with uid (events about an
// earlier pod of the same name are left out), oldest last occurrence first.
func eventRows(events []*corev1.Event, uid types.UID) []EventRow {
	var rows []EventRow
	for _, e := range events {
		if !sameUID(e, uid) {
			continue
		}
		from := e.Source.Component
		if from == "" {
			from = e.ReportingController
		}
		first := e.FirstTimestamp.Time
		if first.IsZero() {
			first = e.EventTime.Time
		}
		rows = append(rows, EventRow{Type: e.Type, Reason: e.Reason, From: from, Message: strings.TrimSpace(e.Message),
			Count: max(eventCount(e), 1), First: first, Last: eventTime(e)})
	}
	slices.SortStableFunc(rows, func(a, b EventRow) int {
		return cmp.Or(a.Last.Compare(b.Last), strings.Compare(a.Reason, b.Reason), strings.Compare(a.Message, b.Message))
	})
	return rows
}
