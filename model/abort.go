package model

import (
	"fmt"
	"strconv"
	"strings"

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

// The sentence names the revision the abort went back to and the number
// that template now has: the controller numbers it after every other, so
// the header and the fleet show the new one.
func (a Abort) String() string {
	return fmt.Sprintf("revision %d aborted, %s", a.Revision, Rollback{To: a.Back, Now: a.Revision + 1})
}

// Rollback is a return to an earlier revision's template (an undo, an
// abort). The controller does not give the template its old number back:
// it becomes the newest revision, numbered after every other, which is
// what the header and the fleet then show.
type Rollback struct {
	// To is the revision gone back to, as numbered before; Now is the
	// number its template has after.
	To, Now int64
}

func (r Rollback) String() string {
	return fmt.Sprintf("back on revision %d's template, now revision %d", r.To, r.Now)
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

// ParseAbort parses an Abort's String (the sentence the timeline shows).
func ParseAbort(s string) (Abort, bool) {
	var a Abort
	var now int64
	if _, err := fmt.Sscanf(s, "revision %d aborted, back on revision %d's template, now revision %d", &a.Revision, &a.Back, &now); err != nil {
		return Abort{}, false
	}
	return a, a.String() == s
}

// Aborts are the aborts recorded on the deployment and, from earlier
// aborts, on its ReplicaSets, by aborted revision.
func Aborts(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) map[int64]Abort {
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
