package cluster

import (
	"fmt"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/kind"
)

// A DaemonSet: its view (a node each) and its fleet row.
var _ = addKind(kind.DaemonSet, workloadKind{row: (*Cluster).daemonSetFleet, summary: daemonSetSummary})

// DaemonNodeState is what a DaemonSet's rolling update has done on a node.
type DaemonNodeState string

const (
	DaemonUpdated     DaemonNodeState = "updated"     // runs the current template, available
	DaemonOld         DaemonNodeState = "old"         // runs an earlier template
	DaemonSurging     DaemonNodeState = "surging"     // an old and a new pod side by side
	DaemonUnavailable DaemonNodeState = "unavailable" // no available daemon pod
	DaemonMissing     DaemonNodeState = "missing"     // should run one and has none
	// DaemonNodeGone: the node is gone or being deleted (a node roll
	// replaced it); its pods wait for garbage collection. The DaemonSet no
	// longer desires it, so the node counts in none of the other states,
	// as the controller's status counts it nowhere.
	DaemonNodeGone DaemonNodeState = "node gone"
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

// nodeGone reports whether node, named by a daemon pod, is gone or being
// deleted; false when the watch sees no nodes at all (not allowed to list
// them), as nothing is then known.
func (c *Cluster) nodeGone(node string) bool {
	if node == "" || len(c.nodes) == 0 {
		return false
	}
	n, ok := c.nodes[node]
	return !ok || n.DeletionTimestamp != nil
}

// DaemonSet is the view of one DaemonSet at now.
func (c *Cluster) DaemonSet(namespace, name string, now time.Time) (DaemonSetView, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := heldAs[*appsv1.DaemonSet](c.workloads, kind.DaemonSet, objectKey(namespace, name))
	if !ok {
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
		if c.nodeGone(node) {
			for _, pe := range byNode[node] {
				row.Pods = append(row.Pods, pe.row)
			}
			row.State = DaemonNodeGone
			v.Nodes = append(v.Nodes, row)
			continue
		}
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

func (c *Cluster) daemonSetFleet(k fleetKey, w kind.Workload, _ time.Time) (fleetEntry, bool) {
	ds := w.Object().(*appsv1.DaemonSet)
	msg, done, err := w.RolloutStatus()
	st := ds.Status
	r := workloadRow(w)
	r.Desired, r.Updated, r.Available = st.DesiredNumberScheduled, st.UpdatedNumberScheduled, st.NumberAvailable
	// The controller gives the revision it rolls to the highest number,
	// a rollback included.
	revs := c.ownedRevisions(ds.Namespace, ds.UID)
	if n := len(revs); n > 0 {
		cur := revs[n-1]
		r.Revision, r.Since, r.ChangeCause = cur.Revision, later(r.Since, cur.CreationTimestamp.Time), cur.Annotations[model.ChangeCauseAnnotation]
		if !done && n > 1 {
			if t, err := model.RevisionTemplate(revs[n-2]); err == nil {
				r.From = differentImages(containerImages(&t), r.Images)
			}
		}
	}
	r.Changed = c.moved(k, r.Since)
	if err != nil {
		done = true
		if st.UpdatedNumberScheduled < st.DesiredNumberScheduled {
			r.State, r.Why = FleetPaused, fmt.Sprintf("OnDelete: %d of %d pods updated; the others take the update when deleted", st.UpdatedNumberScheduled, st.DesiredNumberScheduled)
		}
	}
	whole := ds.Generation <= st.ObservedGeneration && st.UpdatedNumberScheduled >= st.DesiredNumberScheduled
	e := fleetEntry{}
	c.podWorkload(k, &r, &e, []types.UID{ds.UID}, statusLine(msg, err), done, whole)
	return e, true
}

func daemonSetSummary(w kind.Workload) WorkloadSummary {
	d := w.Object().(*appsv1.DaemonSet)
	msg, done, err := w.RolloutStatus()
	return WorkloadSummary{Kind: kind.DaemonSet, Namespace: d.Namespace, Name: d.Name, Desired: d.Status.DesiredNumberScheduled,
		Updated: d.Status.UpdatedNumberScheduled, Available: d.Status.NumberAvailable, Status: statusLine(msg, err), Done: done}
}
