package cluster

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
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
