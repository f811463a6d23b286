package cluster

import (
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model"
)

// noteAbort records an abort the deployment's annotations now say happened.
// Revisions only grow and an abort always stops the newest one, so a new
// abort names a higher revision than any before it; a lower or equal one is
// an older record brought back (an undo copies a ReplicaSet's annotations,
// copies of earlier aborts included) and is not news.
func (c *Cluster) noteAbort(key string, old, cur *appsv1.Deployment, at time.Time) {
	t := c.timelines[key]
	if t == nil {
		t = &timeline{}
		c.timelines[key] = t
	}
	if was, ok := model.AbortOf(old.Annotations); ok {
		t.abortSeen = max(t.abortSeen, was.Revision)
	}
	now, ok := model.AbortOf(cur.Annotations)
	if !ok || now.Revision <= t.abortSeen {
		return
	}
	t.abortSeen = now.Revision
	e := TimelineEntry{Time: at, Kind: TimelineAction, Object: "deployment/" + cur.Name, Message: now.String()}
	if t.recent(func(o TimelineEntry) bool {
		return o.Kind == TimelineAction && o.Object == e.Object && strings.HasSuffix(o.Message, e.Message)
	}) {
		// The console already said so, in its own words.
		return
	}
	c.note(key, e)
}

// recentActions is how far back the timeline is searched for the same
// abort told twice: by the console that sent it and by the watch that saw
// it land. The two arrive within a batch or two of each other.
const recentActions = 32

// recent reports whether one of the newest entries matches.
func (t *timeline) recent(match func(TimelineEntry) bool) bool {
	return t.recentIndex(match) >= 0
}

func (t *timeline) recentIndex(match func(TimelineEntry) bool) int {
	for i := len(t.entries) - 1; i >= max(0, len(t.entries)-recentActions); i-- {
		if match(t.entries[i]) {
			return i
		}
	}
	return -1
}

// replaceSeenAbort drops the entry the watch made for an abort when the
// console reports the same abort afterwards, so that it is told once, in
// the console's words (which name the key and the target).
func (t *timeline) replaceSeenAbort(e TimelineEntry) {
	i := t.recentIndex(func(o TimelineEntry) bool {
		a, ok := model.ParseAbort(o.Message)
		return ok && o.Kind == TimelineAction && o.Object == e.Object && o.Message == a.String() &&
			e.Message != o.Message && strings.HasSuffix(e.Message, o.Message)
	})
	if i >= 0 {
		t.entries, t.shown = append(t.entries[:i], t.entries[i+1:]...), nil
	}
}
