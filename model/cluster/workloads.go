package cluster

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// WorkloadSummary is one StatefulSet or DaemonSet in the picker.
type WorkloadSummary struct {
	Kind            string // "statefulset" or "daemonset"
	Namespace, Name string
	// Desired is spec.replicas (StatefulSet) or the nodes it should run on
	// (DaemonSet); Updated and Available are the status counts.
	Desired, Updated, Available int32
	Status                      string
	Done                        bool
}

// WorkloadRevision is one ControllerRevision of a StatefulSet's or
// DaemonSet's history, as `kubectl rollout history` lists it, with what
// rolling back to it would change.
type WorkloadRevision struct {
	Revision int64
	Name     string
	Images   []string
	// Current is the revision of the template the object has now.
	Current bool
	// Diff is from this revision's template to the current one: '-' lines
	// are what an undo to it brings back.
	Diff []DiffLine
}

// OrdinalCell is one ordinal of a StatefulSet's strip.
type OrdinalCell struct {
	Ordinal int
	Pod     string
	// Exists is false for an ordinal whose pod is not there (yet).
	Exists bool
	State  PodState
	// Updated: the pod runs the update revision; below the partition it
	// stays at the current one.
	Updated        bool
	BelowPartition bool
}

// StatefulSetView is everything the StatefulSet view shows.
type StatefulSetView struct {
	Namespace, Name string
	Replicas        int32
	Policy          string // OrderedReady or Parallel
	Strategy        string // RollingUpdate or OnDelete
	Partition       int32
	// MaxUnavailable is resolved as the controller resolves it; Spec
	// keeps what the user wrote ("" when unset: 1).
	MaxUnavailable     int32
	MaxUnavailableSpec string
	CurrentRevision    string
	UpdateRevision     string
	Ready, Available   int32
	Current, Updated   int32
	Containers         []string // name=image of the template
	// Unavailable counts the ordinals not available against maxUnavailable.
	Unavailable model.Headroom
	Ordinals    []OrdinalCell
	// Status is `kubectl rollout status`'s sentence (or its error); Done is
	// true once the rollout has finished.
	Status  string
	Done    bool
	History []WorkloadRevision // oldest first
}

// DaemonNodeState is what a DaemonSet's rolling update has done on a node.
type DaemonNodeState string

const (
	DaemonUpdated     DaemonNodeState = "updated"     // runs the current template, available
	DaemonOld         DaemonNodeState = "old"         // runs an earlier template
	DaemonSurging     DaemonNodeState = "surging"     // an old and a new pod side by side
	DaemonUnavailable DaemonNodeState = "unavailable" // no available daemon pod
	DaemonMissing     DaemonNodeState = "missing"     // should run one and has none
)

// DaemonNodeRow is one node of a DaemonSet's view.
type DaemonNodeRow struct {
	Node  string
	State DaemonNodeState
	Pods  []PodRow
}

// DaemonSetView is everything the DaemonSet view shows.
type DaemonSetView struct {
	Namespace, Name                  string
	Strategy                         string
	MaxSurge, MaxUnavailable         int32
	MaxSurgeSpec, MaxUnavailableSpec string
	Desired, Current, Ready          int32
	Updated, Available, Misscheduled int32
	Containers                       []string
	// Surge counts the nodes running a second pod against maxSurge;
	// Unavailable the nodes without an available pod against
	// maxUnavailable.
	Surge, Unavailable model.Headroom
	Nodes              []DaemonNodeRow // by node name
	Status             string
	Done               bool
	History            []WorkloadRevision
}

// Workloads lists the StatefulSets and DaemonSets, by kind, namespace and
// name, for the picker.
func (c *Cluster) Workloads() []WorkloadSummary {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []WorkloadSummary
	for _, s := range c.workloads.sets {
		msg, done, err := model.StatefulSetRolloutStatus(s)
		out = append(out, WorkloadSummary{Kind: "statefulset", Namespace: s.Namespace, Name: s.Name, Desired: model.StatefulSetReplicas(s),
			Updated: s.Status.UpdatedReplicas, Available: s.Status.AvailableReplicas, Status: statusLine(msg, err), Done: done})
	}
	for _, d := range c.workloads.daemons {
		msg, done, err := model.DaemonSetRolloutStatus(d)
		out = append(out, WorkloadSummary{Kind: "daemonset", Namespace: d.Namespace, Name: d.Name, Desired: d.Status.DesiredNumberScheduled,
			Updated: d.Status.UpdatedNumberScheduled, Available: d.Status.NumberAvailable, Status: statusLine(msg, err), Done: done})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind > b.Kind // statefulsets first
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}

func statusLine(msg string, err error) string {
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(msg)
}

func containerImages(t *corev1.PodTemplateSpec) []string {
	var out []string
	for _, ct := range t.Spec.Containers {
		out = append(out, ct.Name+"="+ct.Image)
	}
	return out
}

// history is the revisions of an object with template now, each with the
// diff an undo to it would make; current names the revision that matches.
func (c *Cluster) history(revs []*appsv1.ControllerRevision, now *corev1.PodTemplateSpec, current func(*appsv1.ControllerRevision) bool) []WorkloadRevision {
	out := make([]WorkloadRevision, 0, len(revs))
	for _, r := range revs {
		row := WorkloadRevision{Revision: r.Revision, Name: r.Name, Current: current(r)}
		if t, err := model.RevisionTemplate(r); err == nil {
			row.Images = containerImages(&t)
			row.Diff = TemplateDiff(&t, now)
		} else {
			row.Diff = []DiffLine{{Op: ' ', Text: err.Error()}}
		}
		out = append(out, row)
	}
	return out
}

// StatefulSet is the view of one StatefulSet at now.
func (c *Cluster) StatefulSet(namespace, name string, now time.Time) (StatefulSetView, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s := c.workloads.sets[objectKey(namespace, name)]
	if s == nil {
		return StatefulSetView{}, false
	}
	replicas := model.StatefulSetReplicas(s)
	v := StatefulSetView{
		Namespace: namespace, Name: name, Replicas: replicas,
		Policy: string(s.Spec.PodManagementPolicy), Strategy: string(s.Spec.UpdateStrategy.Type),
		Partition: model.StatefulSetPartition(s), CurrentRevision: s.Status.CurrentRevision, UpdateRevision: s.Status.UpdateRevision,
		Ready: s.Status.ReadyReplicas, Available: s.Status.AvailableReplicas, Current: s.Status.CurrentReplicas, Updated: s.Status.UpdatedReplicas,
		Containers: containerImages(&s.Spec.Template), MaxUnavailable: 1,
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if ru.MaxUnavailable != nil {
			v.MaxUnavailableSpec = ru.MaxUnavailable.String()
		}
		if n, err := model.StatefulSetMaxUnavailable(ru.MaxUnavailable, int(replicas)); err == nil {
			v.MaxUnavailable = int32(n)
		}
	}
	msg, done, err := model.StatefulSetRolloutStatus(s)
	v.Status, v.Done = statusLine(msg, err), done

	start := model.StatefulSetStartOrdinal(s)
	byOrdinal := map[int]*podEntry{}
	highest := start + int(replicas) - 1
	for _, key := range c.podsByOwner.sorted(s.UID) {
		pe := c.pods[key]
		if pe == nil {
			continue
		}
		if parent, ord := model.StatefulPodOrdinal(pe.pod.Name); parent == name && ord >= 0 {
			byOrdinal[ord] = pe
			highest = max(highest, ord)
		}
	}
	unavailable := int32(0)
	for ord := start; ord <= highest; ord++ {
		cell := OrdinalCell{Ordinal: ord, Pod: model.StatefulPodName(name, ord), BelowPartition: ord < start+int(v.Partition)}
		if pe := byOrdinal[ord]; pe != nil {
			cell.Exists, cell.State = true, pe.row.State
			cell.Updated = s.Status.UpdateRevision != "" && pe.pod.Labels[model.RevisionHashLabel] == s.Status.UpdateRevision
			if pe.pod.DeletionTimestamp != nil || !model.IsPodAvailable(pe.pod, s.Spec.MinReadySeconds, now) {
				unavailable++
			}
		} else if ord < start+int(replicas) {
			unavailable++
		}
		v.Ordinals = append(v.Ordinals, cell)
	}
	v.Unavailable = model.Headroom{Used: unavailable, Limit: v.MaxUnavailable}
	patch, _ := model.TemplatePatch(s)
	v.History = c.history(c.ownedRevisions(namespace, s.UID), &s.Spec.Template, func(r *appsv1.ControllerRevision) bool {
		return string(r.Data.Raw) == string(patch)
	})
	return v, true
}

// DaemonSet is the view of one DaemonSet at now.
func (c *Cluster) DaemonSet(namespace, name string, now time.Time) (DaemonSetView, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d := c.workloads.daemons[objectKey(namespace, name)]
	if d == nil {
		return DaemonSetView{}, false
	}
	st := d.Status
	v := DaemonSetView{
		Namespace: namespace, Name: name, Strategy: string(d.Spec.UpdateStrategy.Type),
		Desired: st.DesiredNumberScheduled, Current: st.CurrentNumberScheduled, Ready: st.NumberReady,
		Updated: st.UpdatedNumberScheduled, Available: st.NumberAvailable, Misscheduled: st.NumberMisscheduled,
		Containers: containerImages(&d.Spec.Template),
	}
	if ru := d.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if ru.MaxSurge != nil {
			v.MaxSurgeSpec = ru.MaxSurge.String()
		}
		if ru.MaxUnavailable != nil {
			v.MaxUnavailableSpec = ru.MaxUnavailable.String()
		}
	}
	if surge, unavailable, err := model.DaemonSetBudget(d, int(st.DesiredNumberScheduled)); err == nil {
		v.MaxSurge, v.MaxUnavailable = int32(surge), int32(unavailable)
	}
	msg, done, err := model.DaemonSetRolloutStatus(d)
	v.Status, v.Done = statusLine(msg, err), done

	revs := c.ownedRevisions(namespace, d.UID)
	patch, _ := model.TemplatePatch(d)
	hash := ""
	for _, r := range revs {
		if string(r.Data.Raw) == string(patch) {
			hash = r.Labels[model.RevisionHashLabel]
		}
	}
	generation, _ := model.DaemonSetTemplateGeneration(d)
	byNode := map[string][]*podEntry{}
	for _, key := range c.podsByOwner.sorted(d.UID) {
		if pe := c.pods[key]; pe != nil {
			node := model.DaemonPodNode(pe.pod)
			byNode[node] = append(byNode[node], pe)
		}
	}
	nodes := make([]string, 0, len(byNode))
	for n := range byNode {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	var surging, without int32
	for _, node := range nodes {
		row := DaemonNodeRow{Node: node}
		var updated, old, availableOne bool
		live := 0
		for _, pe := range byNode[node] {
			row.Pods = append(row.Pods, pe.row)
			if pe.pod.DeletionTimestamp != nil {
				continue
			}
			live++
			if model.IsDaemonPodUpdated(pe.pod, hash, generation) {
				updated = true
			} else {
				old = true
			}
			availableOne = availableOne || model.IsPodAvailable(pe.pod, d.Spec.MinReadySeconds, now)
		}
		switch {
		case live > 1 && updated && old:
			row.State = DaemonSurging
			surging++
		case !availableOne:
			row.State = DaemonUnavailable
		case old:
			row.State = DaemonOld
		default:
			row.State = DaemonUpdated
		}
		if !availableOne && node != "" {
			without++
		}
		v.Nodes = append(v.Nodes, row)
	}
	// Nodes the DaemonSet should run on but has no pod for yet.
	if missing := st.DesiredNumberScheduled - st.CurrentNumberScheduled; missing > 0 {
		without += missing
		v.Nodes = append(v.Nodes, DaemonNodeRow{Node: fmt.Sprintf("(%d more)", missing), State: DaemonMissing})
	}
	v.Surge = model.Headroom{Used: surging, Limit: v.MaxSurge}
	v.Unavailable = model.Headroom{Used: without, Limit: v.MaxUnavailable}
	v.History = c.history(revs, &d.Spec.Template, func(r *appsv1.ControllerRevision) bool {
		return r.Labels[model.RevisionHashLabel] == hash && hash != ""
	})
	return v, true
}
