package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
)

// Annotations an abort leaves on the deployment, so that the timeline and
// the history can say what was aborted, also after rollscope restarts. The
// deployment controller copies a deployment's annotations onto its new
// ReplicaSet, so each ReplicaSet also carries the last abort before it: a
// record that outlives the next abort.
const (
	// AbortedRevisionAnnotation is the revision whose rollout was aborted.
	AbortedRevisionAnnotation = Prefix + "aborted-revision"
	// AbortedToAnnotation is the revision the abort went back to, numbered
	// as it was before the abort (the controller renumbers it).
	AbortedToAnnotation = Prefix + "aborted-to-revision"
	// AbortedAnnotation is the abort's sentence, for people reading the
	// object with kubectl.
	AbortedAnnotation = Prefix + "aborted"
)

// Abort is one aborted rollout.
type Abort struct {
	// Revision is the revision whose rollout was stopped; Back is the
	// stable revision the deployment returned to.
	Revision, Back int64
}

func (a Abort) String() string {
	return fmt.Sprintf("revision %d aborted, back on revision %d", a.Revision, a.Back)
}

// Annotate writes a's annotations into annotations.
func (a Abort) Annotate(annotations map[string]string) {
	annotations[AbortedRevisionAnnotation] = strconv.FormatInt(a.Revision, 10)
	annotations[AbortedToAnnotation] = strconv.FormatInt(a.Back, 10)
	annotations[AbortedAnnotation] = a.String()
}

// AbortOf reads the abort recorded in annotations; false when there is
// none or it does not parse (someone edited it by hand).
func AbortOf(annotations map[string]string) (Abort, bool) {
	rev, err1 := strconv.ParseInt(strings.TrimSpace(annotations[AbortedRevisionAnnotation]), 10, 64)
	back, err2 := strconv.ParseInt(strings.TrimSpace(annotations[AbortedToAnnotation]), 10, 64)
	if err1 != nil || err2 != nil || rev <= 0 || back <= 0 {
		return Abort{}, false
	}
	return Abort{Revision: rev, Back: back}, true
}

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
	if was, ok := AbortOf(old.Annotations); ok {
		t.abortSeen = max(t.abortSeen, was.Revision)
	}
	now, ok := AbortOf(cur.Annotations)
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
		a, ok := abortSentence(o.Message)
		return ok && o.Kind == TimelineAction && o.Object == e.Object && o.Message == a.String() &&
			e.Message != o.Message && strings.HasSuffix(e.Message, o.Message)
	})
	if i >= 0 {
		t.entries = append(t.entries[:i], t.entries[i+1:]...)
	}
}

// abortSentence parses an Abort's String.
func abortSentence(s string) (Abort, bool) {
	var a Abort
	if _, err := fmt.Sscanf(s, "revision %d aborted, back on revision %d", &a.Revision, &a.Back); err != nil {
		return Abort{}, false
	}
	return a, a.String() == s
}

// aborts are the aborts recorded on the deployment and, from earlier
// aborts, on its ReplicaSets, by aborted revision.
func aborts(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) map[int64]Abort {
	out := map[int64]Abort{}
	add := func(annotations map[string]string) {
		if a, ok := AbortOf(annotations); ok {
			out[a.Revision] = a
		}
	}
	for _, rs := range rss {
		if rs != nil {
			add(rs.Annotations)
		}
	}
	// The deployment's record is the newest word.
	add(d.Annotations)
	return out
}
