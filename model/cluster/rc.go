package cluster

import (
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/kind"
)

// Apply folds a batch into the picture: the Cluster's objects first, then
// its ReplicationControllers, which are kept apart under their own lock (the
// console needs them only for the rolling update view, and an update is read
// from the two controllers' annotations; see DescribeRCUpdate).
func (c *Cluster) Apply(b Batch) bool {
	changed := c.apply(b)
	return c.applyRCs(b) || changed
}

// applyRCs keeps the batch's ReplicationControllers.
func (c *Cluster) applyRCs(b Batch) bool {
	changed := false
	c.rcMu.Lock()
	defer c.rcMu.Unlock()
	for _, ref := range b.Deleted {
		if ref.Kind == "ReplicationController" {
			key := objectKey(ref.Namespace, ref.Name)
			if _, ok := c.rcs[key]; ok {
				delete(c.rcs, key)
				changed = true
			}
		}
	}
	for _, obj := range b.Objects {
		if rc, ok := obj.(*corev1.ReplicationController); ok && rc != nil {
			key := objectKey(rc.Namespace, rc.Name)
			if old := c.rcs[key]; old == nil || !sameResourceVersion(old, rc) {
				c.rcs[key] = rc
				changed = true
			}
		}
	}
	return changed
}

// RCRow is one controller of the rolling update view.
type RCRow struct {
	Name   string
	Images []string
	// Desired is spec.replicas; Current, Ready and Available the status.
	Desired, Current, Ready, Available int32
	// Annotations are the update's annotations on it, "key=value", sorted,
	// with the kubectl.kubernetes.io/ prefix left off.
	Annotations []string
	Pods        []PodRow
}

// RCUpdateView is what the console shows of a ReplicationController and the
// rolling update it takes part in.
type RCUpdateView struct {
	Namespace, Name string
	// Updating is false when no update is under way: Old is then the
	// controller alone and Phase is RCPhaseDone.
	Updating bool
	Phase    model.RCPhase
	Rollback bool
	// Old is the controller being updated; Next the one replacing it (no
	// Name until it has been created).
	Old, Next RCRow
	Desired   int32
	// Original is the old controller's size before the update, which an
	// abort restores (0 when not recorded).
	Original int32
	Limits   model.RCLimits
	// Surge: pods asked for (both controllers' spec.replicas) against
	// desired + maxSurge. Unavailable: desired pods not available against
	// maxUnavailable.
	Surge, Unavailable model.Headroom
	// Request is what the rolling-update controller was asked for, when it
	// runs the update.
	Request *model.RCUpdateRequest
	// Events are the two controllers' latest events (the update's progress
	// lines among them), oldest first.
	Events []TimelineEntry
}

// rcEventLimit is how many events the view keeps.
const rcEventLimit = 8

// RCUpdate is the view of controller name in namespace; ok is false when
// neither it nor an update that renames to it exists.
func (c *Cluster) RCUpdate(namespace, name string) (RCUpdateView, bool) {
	c.rcMu.RLock()
	var rcs []*corev1.ReplicationController
	for _, rc := range c.rcs {
		if rc.Namespace == namespace {
			rcs = append(rcs, rc)
		}
	}
	c.rcMu.RUnlock()
	byName := map[string]*corev1.ReplicationController{}
	var renaming *corev1.ReplicationController
	for _, rc := range rcs {
		byName[rc.Name] = rc
		if rc.Annotations[model.RCRenameAnnotation] == name {
			renaming = rc
		}
	}
	v := RCUpdateView{Namespace: namespace, Name: name, Phase: model.RCPhaseDone}
	from := name
	if byName[name] == nil {
		// Mid-rename the old name is free for a moment: the update is
		// found from the next controller.
		if renaming == nil {
			return RCUpdateView{}, false
		}
		from = renaming.Name
	}
	s, updating := model.DescribeRCUpdate(rcs, from)
	if updating && s.Next == "" && renaming != nil && renaming.Name != s.Old {
		s.Next, s.NextSize = renaming.Name, model.RCReplicas(renaming)
	}
	if !updating {
		s = model.RCUpdateStatus{Old: name, OldSize: model.RCReplicas(byName[name]), Desired: model.RCReplicas(byName[name]), Phase: model.RCPhaseDone}
	}
	v.Updating, v.Phase, v.Rollback, v.Desired, v.Limits, v.Request = updating, s.Phase, s.Rollback, s.Desired, s.Limits, s.Request
	if v.Desired == 0 && s.Limits.Desired == 0 && updating {
		v.Desired = s.OldSize + s.NextSize
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	var available int32
	for _, r := range []struct {
		name string
		row  *RCRow
	}{{s.Old, &v.Old}, {s.Next, &v.Next}} {
		rc := byName[r.name]
		if rc == nil {
			r.row.Name = r.name
			continue
		}
		*r.row = c.rcRow(rc)
		available += rc.Status.AvailableReplicas
		v.Events = append(v.Events, c.rcEvents(rc)...)
	}
	if old := byName[s.Old]; old != nil {
		v.Original, _ = model.RCAnnotationInt(old, model.RCOriginalAnnotation)
	}
	slices.SortStableFunc(v.Events, func(a, b TimelineEntry) int { return a.Time.Compare(b.Time) })
	if len(v.Events) > rcEventLimit {
		v.Events = v.Events[len(v.Events)-rcEventLimit:]
	}
	limits := v.Limits
	if !updating {
		limits = model.RCLimits{Desired: v.Desired, MaxSurge: 1}
	}
	v.Surge = model.Headroom{Used: v.Old.Desired + v.Next.Desired, Limit: limits.Ceiling()}
	v.Unavailable = model.Headroom{Used: max(0, v.Desired-available), Limit: limits.MaxUnavailable}
	return v, true
}

// rcRow is a controller with its pods; the Cluster's lock is held.
func (c *Cluster) rcRow(rc *corev1.ReplicationController) RCRow {
	row := RCRow{
		Name:      rc.Name,
		Desired:   model.RCReplicas(rc),
		Current:   rc.Status.Replicas,
		Ready:     rc.Status.ReadyReplicas,
		Available: rc.Status.AvailableReplicas,
	}
	if rc.Spec.Template != nil {
		row.Images = images(rc.Spec.Template)
	}
	for _, a := range model.RCUpdateAnnotations {
		if v, ok := rc.Annotations[a]; ok && a != model.RCRequestAnnotation {
			row.Annotations = append(row.Annotations, strings.TrimPrefix(a, "kubectl.kubernetes.io/")+"="+v)
		}
	}
	slices.Sort(row.Annotations)
	for _, key := range c.podsByOwner.sorted(rc.UID) {
		if pe := c.pods[key]; pe != nil && pe.pod.Namespace == rc.Namespace {
			row.Pods = append(row.Pods, pe.row)
		}
	}
	return row
}

// rcEvents are the events about rc; the Cluster's lock is held.
func (c *Cluster) rcEvents(rc *corev1.ReplicationController) []TimelineEntry {
	var out []TimelineEntry
	for _, key := range c.eventsByObject.sorted(ObjectRef{Kind: "ReplicationController", Namespace: rc.Namespace, Name: rc.Name}) {
		e := c.events[key]
		if e == nil {
			continue
		}
		t := e.LastTimestamp.Time
		if t.IsZero() {
			t = e.EventTime.Time
		}
		if t.IsZero() {
			t = e.CreationTimestamp.Time
		}
		out = append(out, TimelineEntry{Time: t, Kind: TimelineEvent, Object: "replicationcontroller/" + rc.Name,
			Message: e.Message, Warning: e.Type == corev1.EventTypeWarning})
	}
	return out
}

// The fleet keeps ReplicationControllers in its workload store too, under
// the Cluster's lock: a rolling update is one row, read from both
// controllers, so marking one controller's row marks its partner's.
var _ = addKind(kind.ReplicationController, workloadKind{row: (*Cluster).rcFleet, alsoMarks: markRCPartners})

// rcFleet is a ReplicationController's row. A rolling update is one row,
// under the old controller's name, rolling from its images to the next
// controller's; the next controller has no row of its own while the update
// runs.
func (c *Cluster) rcFleet(k fleetKey, w kind.Workload, _ time.Time) (fleetEntry, bool) {
	rc := w.Object().(*corev1.ReplicationController)
	r := workloadRow(w)
	r.Desired, r.Updated, r.Available = model.RCReplicas(rc), rc.Status.Replicas, rc.Status.AvailableReplicas
	r.ChangeCause = rc.Annotations[model.ChangeCauseAnnotation]
	e := fleetEntry{}
	uids := []types.UID{rc.UID}
	partner := ""
	status := fmt.Sprintf("%d of %d pods available", r.Available, r.Desired)
	done := r.Available >= r.Desired
	if hasRCUpdate(rc) {
		var siblings []*corev1.ReplicationController
		for _, o := range c.workloads.byKind[kind.ReplicationController] {
			if o.GetNamespace() == rc.Namespace {
				siblings = append(siblings, o.Object().(*corev1.ReplicationController))
			}
		}
		s, updating := model.DescribeRCUpdate(siblings, rc.Name)
		if updating {
			byName := func(n string) *corev1.ReplicationController {
				o, _ := heldAs[*corev1.ReplicationController](c.workloads, kind.ReplicationController, objectKey(rc.Namespace, n))
				return o
			}
			old, next := byName(s.Old), byName(s.Next)
			if rc.Name != s.Old && old != nil {
				return fleetEntry{}, false // the old controller's row shows it
			}
			from, to := old, next
			if s.Rollback {
				from, to = next, old
			}
			r.Desired, r.Updated, r.Available = s.Desired, 0, 0
			for _, x := range []*corev1.ReplicationController{old, next} {
				if x != nil {
					r.Available += x.Status.AvailableReplicas
				}
			}
			if to != nil {
				r.Updated = to.Status.Replicas
				if to.Spec.Template != nil {
					r.Images = containerImages(to.Spec.Template)
				}
				r.Since = later(r.Since, to.CreationTimestamp.Time)
			}
			if from != nil && from.Spec.Template != nil && to != nil {
				r.From = differentImages(containerImages(from.Spec.Template), r.Images)
			}
			uids = uids[:0]
			for _, x := range []*corev1.ReplicationController{old, next} {
				if x != nil {
					uids = append(uids, x.UID)
					if x != rc {
						partner = x.Name
					}
				}
			}
			status = fmt.Sprintf("rolling update %s → %s (%s): %d of %d updated", s.Old, s.Next, s.Phase, r.Updated, r.Desired)
			done = false
		}
	}
	r.Changed = c.moved(k, r.Since)
	if partner != "" {
		// The next controller's figures are the update's progress.
		r.Changed = later(r.Changed, c.fleetBook.movedAt[fleetKey{kind.ReplicationController, rc.Namespace, partner}])
	}
	c.podWorkload(k, &r, &e, uids, status, done, done)
	return e, true
}

func hasRCUpdate(rc *corev1.ReplicationController) bool {
	for _, a := range model.RCUpdateAnnotations {
		if _, ok := rc.Annotations[a]; ok {
			return true
		}
	}
	return false
}

// markRCPartners marks the rows of the controllers the RC at k names in its
// update annotations.
func markRCPartners(c *Cluster, k fleetKey) {
	rc, ok := heldAs[*corev1.ReplicationController](c.workloads, kind.ReplicationController, objectKey(k.namespace, k.name))
	if !ok {
		return
	}
	for _, partner := range rcPartners(rc) {
		c.fleetBook.mark(fleetKey{kind.ReplicationController, rc.Namespace, partner})
	}
}

// rcPartners names the controllers rc's update annotations point at.
func rcPartners(rc *corev1.ReplicationController) []string {
	var out []string
	for _, a := range []string{model.RCNextAnnotation, model.RCRenameAnnotation} {
		if v := rc.Annotations[a]; v != "" {
			out = append(out, v)
		}
	}
	if v := rc.Annotations[model.RCSourceAnnotation]; v != "" {
		name, _, _ := strings.Cut(v, ":")
		out = append(out, name)
	}
	return out
}
