package cluster

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// podWarnings are one deployment's Warning events about its pods, by
// reason. A crash loop of 30 pods records an event per pod and bumps each
// count every back-off; the timeline shows one line per reason with the
// counts instead, moved to the latest occurrence.
type podWarnings map[string]*podWarning

type podWarning struct {
	counts map[string]int32 // by event key: each event's own count
	pods   map[string]bool
	entry  TimelineEntry // the line on the timeline now
	noted  bool
}

// notePodWarning folds a Warning event about a pod of one of the
// deployment's ReplicaSets into its reason's line. Normal pod events
// (Scheduled, Pulled, Started) are the kubelet's routine and stay off.
func (c *Cluster) notePodWarning(e *corev1.Event, at time.Time) {
	if e.Type != corev1.EventTypeWarning {
		return
	}
	about := involved(e)
	pe := c.pods[objectKey(about.Namespace, about.Name)]
	if pe == nil || !sameUID(e, pe.pod.UID) {
		return
	}
	rs := c.replicaSets[objectKey(about.Namespace, controllerName(pe.pod))]
	if rs == nil || rs.UID != pe.facts.owner {
		return
	}
	deployment, ok := c.deploymentOf(rs)
	if !ok {
		return
	}
	t := c.timelines[deployment]
	if t == nil {
		t = &timeline{}
		c.timelines[deployment] = t
	}
	if t.podWarnings == nil {
		t.podWarnings = podWarnings{}
	}
	w := t.podWarnings[e.Reason]
	if w == nil {
		w = &podWarning{counts: map[string]int32{}, pods: map[string]bool{}}
		t.podWarnings[e.Reason] = w
	}
	w.counts[objectKey(e.Namespace, e.Name)] = max(eventCount(e), 1)
	w.pods[about.Name] = true
	if !e.LastTimestamp.IsZero() {
		at = e.LastTimestamp.Time
	}
	var total int32
	for _, n := range w.counts {
		total += n
	}
	msg := fmt.Sprintf("%s: %s", e.Reason, e.Message)
	if total > 1 || len(w.pods) > 1 {
		msg += fmt.Sprintf(" (x%d on %s)", total, model.Plural(len(w.pods), "pod"))
	}
	if w.noted {
		t.drop(w.entry)
	}
	w.entry = TimelineEntry{Time: at, Kind: TimelineEvent, Object: "pod/" + about.Name, Message: msg, Warning: true}
	w.noted = true
	t.add(w.entry)
}

// drop takes one entry off the timeline, the newest equal to e.
func (t *timeline) drop(e TimelineEntry) {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if t.entries[i] == e {
			t.entries, t.shown = slices.Delete(t.entries, i, i+1), nil
			return
		}
	}
}

// controllerName is the name of the pod's controlling owner.
func controllerName(p *corev1.Pod) string {
	if ref := controllerOf(p); ref != nil {
		return ref.Name
	}
	return ""
}
