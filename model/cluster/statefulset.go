package cluster

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/kind"
)

// A StatefulSet: its view (the ordinals, the partition) and its fleet row.
var _ = addKind(kind.StatefulSet, workloadKind{row: (*Cluster).statefulSetFleet, summary: statefulSetSummary})

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

// StatefulSet is the view of one StatefulSet at now.
func (c *Cluster) StatefulSet(namespace, name string, now time.Time) (StatefulSetView, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s, ok := heldAs[*appsv1.StatefulSet](c.workloads, kind.StatefulSet, objectKey(namespace, name))
	if !ok {
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

func (c *Cluster) statefulSetFleet(k fleetKey, w kind.Workload, _ time.Time) (fleetEntry, bool) {
	s := w.Object().(*appsv1.StatefulSet)
	msg, done, err := w.RolloutStatus()
	st := s.Status
	r := workloadRow(w)
	r.Desired, r.Updated, r.Available = model.StatefulSetReplicas(s), st.UpdatedReplicas, st.AvailableReplicas
	pending := st.UpdateRevision != "" && st.CurrentRevision != "" && st.UpdateRevision != st.CurrentRevision
	if update := c.workloads.revisions[objectKey(s.Namespace, st.UpdateRevision)]; update != nil {
		r.Revision, r.Since, r.ChangeCause = update.Revision, later(r.Since, update.CreationTimestamp.Time), update.Annotations[model.ChangeCauseAnnotation]
	} else {
		r.Revision = latestRevision(c.ownedRevisions(s.Namespace, s.UID))
	}
	if current := c.workloads.revisions[objectKey(s.Namespace, st.CurrentRevision)]; pending && current != nil {
		if t, err := model.RevisionTemplate(current); err == nil {
			r.From = differentImages(containerImages(&t), r.Images)
		}
	}
	r.Changed = c.moved(k, r.Since)
	status := statusLine(msg, err)
	replicas, partition := model.StatefulSetReplicas(s), model.StatefulSetPartition(s)
	switch {
	case err != nil:
		// OnDelete: kubectl follows no rollout; pods take the update when
		// someone deletes them.
		done = true
		if pending && st.UpdatedReplicas < replicas {
			r.State, r.Why = FleetPaused, fmt.Sprintf("OnDelete: %d of %d pods updated; the others take the update when deleted", st.UpdatedReplicas, replicas)
		}
	case done && pending && partition >= replicas:
		r.State, r.Why = FleetPaused, fmt.Sprintf("partition %d holds every pod at the current revision; lower it (sts-partition) to roll", partition)
	case done && pending && partition > 0:
		// A partition held above 0 is a canary: the ordinals from it up run
		// the update, those below wait for the partition to come down.
		r.State, r.Word = FleetCanary, fmt.Sprintf("canary %d/%d pods", st.UpdatedReplicas, replicas)
		r.Why = fmt.Sprintf("partition %d: ordinals below it stay at the current revision", partition)
	}
	// Whole but for pods being replaced: no update pending.
	whole := st.ObservedGeneration >= s.Generation && !pending
	e := fleetEntry{}
	c.podWorkload(k, &r, &e, []types.UID{s.UID}, status, done, whole)
	return e, true
}

func latestRevision(revs []*appsv1.ControllerRevision) int64 {
	var n int64
	for _, r := range revs {
		n = max(n, r.Revision)
	}
	return n
}

func statefulSetSummary(w kind.Workload) WorkloadSummary {
	s := w.Object().(*appsv1.StatefulSet)
	msg, done, err := w.RolloutStatus()
	return WorkloadSummary{Kind: kind.StatefulSet, Namespace: s.Namespace, Name: s.Name, Desired: model.StatefulSetReplicas(s),
		Updated: s.Status.UpdatedReplicas, Available: s.Status.AvailableReplicas, Status: statusLine(msg, err), Done: done}
}
