package cluster_test

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model"
	"rollscope/model/cluster"
)

// abortStory is revision 7 of frontend half rolled out over revision 6, then
// aborted back to revision 6, as engine/actions.Abort and then the
// deployment controller leave it.
type abortStory struct {
	before, aborted, renumbered *appsv1.Deployment
	v6, v7, v6Renumbered        *appsv1.ReplicaSet
}

func newAbortStory() abortStory {
	var s abortStory
	s.before = deployment("frontend", "web:v7", 4, "7")
	s.v6 = ownedReplicaSet(s.before, "v6", "6", "web:v6", 3, 3, at(-60))
	s.v7 = ownedReplicaSet(s.before, "v7", "7", "web:v7", 2, 0, at(-1))
	s.v7.Annotations[model.ChangeCauseAnnotation] = "rollscope set image deployment/frontend web=web:v7"

	// Abort: the stable template back, the record in annotations.
	s.aborted = s.before.DeepCopy()
	s.aborted.Spec.Template = *s.v6.Spec.Template.DeepCopy()
	s.aborted.Generation++
	model.Abort{Revision: 7, Back: 6}.Annotate(s.aborted.Annotations)

	// The controller takes revision 6's ReplicaSet back as revision 8 and
	// copies the deployment's annotations onto it.
	s.renumbered = s.aborted.DeepCopy()
	s.renumbered.Annotations[model.RevisionAnnotation] = "8"
	s.v6Renumbered = s.v6.DeepCopy()
	s.v6Renumbered.ResourceVersion = "2"
	for k, v := range s.aborted.Annotations {
		if !model.SkipCopyAnnotation(k) {
			s.v6Renumbered.Annotations[k] = v
		}
	}
	s.v6Renumbered.Annotations[model.RevisionAnnotation] = "8"
	s.v6Renumbered.Annotations[model.RevisionHistoryAnnotation] = "6"
	*s.v6Renumbered.Spec.Replicas = 4
	return s
}

func abortEntries(c *cluster.Cluster) []cluster.TimelineEntry {
	var out []cluster.TimelineEntry
	for _, e := range c.Timeline(shop, "frontend") {
		if strings.Contains(e.Message, "aborted") {
			out = append(out, e)
		}
	}
	return out
}

// An abort seen through the watch (a script, another rollscope, kubectl
// applying the same annotations) is one timeline line, and the controller's
// renumbering afterwards does not repeat it.
func TestTimelineShowsAnAbortFromItsAnnotations(t *testing.T) {
	s := newAbortStory()
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: t0, Watch: synced, Objects: []runtime.Object{s.before, s.v6, s.v7}})
	c.Apply(cluster.Batch{At: at(1), Watch: synced, Objects: []runtime.Object{s.aborted}})
	c.Apply(cluster.Batch{At: at(2), Watch: synced, Objects: []runtime.Object{s.renumbered, s.v6Renumbered}})

	got := abortEntries(c)
	want := cluster.TimelineEntry{Time: at(1), Kind: cluster.TimelineAction, Object: "deployment/frontend", Message: "revision 7 aborted, back on revision 6's template, now revision 8"}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("abort entries %+v, want just %+v", got, want)
	}
}

// The console reports its own abort too; whichever arrives first, the
// timeline tells it once, in the console's words.
func TestTimelineTellsAConsoleAbortOnce(t *testing.T) {
	console := cluster.TimelineEntry{Time: at(1), Object: "deployment/frontend", Message: "abort deployment/frontend: revision 7 aborted, back on revision 6's template, now revision 8"}
	for _, consoleFirst := range []bool{true, false} {
		s := newAbortStory()
		c := cluster.NewCluster()
		c.Apply(cluster.Batch{At: t0, Watch: synced, Objects: []runtime.Object{s.before, s.v6, s.v7}})
		if consoleFirst {
			c.AddAction(shop, "frontend", console)
		}
		c.Apply(cluster.Batch{At: at(1), Watch: synced, Objects: []runtime.Object{s.aborted}})
		if !consoleFirst {
			c.AddAction(shop, "frontend", console)
		}
		got := abortEntries(c)
		if len(got) != 1 || got[0].Message != console.Message {
			t.Errorf("console first %v: abort entries %+v, want only the console's", consoleFirst, got)
		}
	}
}

// An undo to a ReplicaSet that carries an earlier abort's copy brings that
// record back onto the deployment: old news, no line. A record edited into
// nonsense is no abort either.
func TestTimelineIgnoresOldOrBrokenAbortRecords(t *testing.T) {
	s := newAbortStory()
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: t0, Watch: synced, Objects: []runtime.Object{s.renumbered, s.v6Renumbered, s.v7}})
	older := s.renumbered.DeepCopy()
	older.ResourceVersion = "5"
	model.Abort{Revision: 3, Back: 2}.Annotate(older.Annotations)
	c.Apply(cluster.Batch{At: at(1), Watch: synced, Objects: []runtime.Object{older}})
	broken := older.DeepCopy()
	broken.ResourceVersion = "6"
	broken.Annotations[model.AbortedRevisionAnnotation] = "nine"
	c.Apply(cluster.Batch{At: at(2), Watch: synced, Objects: []runtime.Object{broken}})
	again := broken.DeepCopy()
	again.ResourceVersion = "7"
	model.Abort{Revision: 7, Back: 6}.Annotate(again.Annotations)
	c.Apply(cluster.Batch{At: at(3), Watch: synced, Objects: []runtime.Object{again}})
	if got := abortEntries(c); len(got) != 0 {
		t.Fatalf("abort entries %+v, want none", got)
	}
}

// The history pane's row of the aborted revision says it was aborted and
// where the deployment went back to, keeping why it was started; the
// revision it went back to is now current under its new number.
func TestHistoryShowsTheAbortedRevision(t *testing.T) {
	s := newAbortStory()
	c := loaded(s.renumbered, s.v6Renumbered, s.v7)
	v, ok := c.Rollout(shop, "frontend", at(3))
	if !ok {
		t.Fatal("no rollout view")
	}
	byRev := map[int64]cluster.RevisionRow{}
	for _, r := range v.History {
		byRev[r.Revision] = r
	}
	if got, want := byRev[7].ChangeCause+" | "+byRev[7].Aborted, "rollscope set image deployment/frontend web=web:v7 | revision 7 aborted, back on revision 6's template, now revision 8"; got != want {
		t.Errorf("revision 7 change cause %q, want %q", got, want)
	}
	if !byRev[8].Current || byRev[8].ChangeCause != "" {
		t.Errorf("revision 8 %+v, want current with no change cause", byRev[8])
	}
	if !byRev[6].Gone {
		t.Errorf("revision 6 %+v, want gone (renumbered 8)", byRev[6])
	}
}
