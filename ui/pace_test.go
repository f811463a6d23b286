package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
	"rollscope/themes"
)

// pacedModel is the stuck rollout on a console that redraws at most once an
// hour while the watch churns: whatever it shows before the hour is up, it
// showed at once.
func pacedModel(t testing.TB) (Model, *cluster.Cluster) {
	t.Helper()
	c := cluster.NewCluster()
	m := New(Options{Cluster: c, Namespace: "shop", Context: "prod-eu", Clock: fixedClock, Pace: time.Hour})
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 48},
		cluster.Batch{At: t0, Objects: stuckRollout(), Watch: cluster.WatchStatus{Synced: true, Connected: true, Since: t0}})
	return m, c
}

func drawnPlain(m Model) string { return ansi.Strip(m.View().Content) }

func TestPacedBatchesWaitForTheEndOfThePace(t *testing.T) {
	m, c := pacedModel(t)
	if out := drawnPlain(m); !strings.Contains(out, "api-8c7b5d6f4") {
		t.Fatalf("the first batch (the watch synced) was not shown at once:\n%s", out)
	}
	m = send(m, press("tab")) // the new ReplicaSet's pods
	rs := stuckRollout()[2].(*appsv1.ReplicaSet)
	next, cmd := m.Update(cluster.Batch{At: t0.Add(time.Second), Objects: []runtime.Object{apiPod(rs, "f6", "", unschedulable)}, Watch: c.Watch()})
	m = next.(Model)
	if out := drawnPlain(m); strings.Contains(out, "api-8c7b5d6f4-f6") {
		t.Errorf("a pod's change was drawn before the end of the pace:\n%s", out)
	}
	if cmd == nil {
		t.Fatal("a held batch asked for no redraw at the end of the pace")
	}
	m = send(m, paceMsg{})
	if out := drawnPlain(m); !strings.Contains(out, "○ api-8c7b5d6f4-f6") {
		t.Errorf("the held pod is not shown at the end of the pace:\n%s", out)
	}
}

// TestTheFleetAloneHasItsOwnPace: with the fleet shown alone a batch that
// moves a row's counts waits for the fleet's pace, a finished rollout does
// not, and a workload's page opened from it redraws at the console's pace.
func TestTheFleetAloneHasItsOwnPace(t *testing.T) {
	c := cluster.NewCluster()
	m := New(Options{Cluster: c, AllNamespaces: true, Context: "prod-eu", Clock: fixedClock, Pace: time.Nanosecond, FleetPace: time.Hour})
	objs := stuckRollout()
	web := objs[0].(*appsv1.Deployment).DeepCopy()
	web.Name, web.UID = "web", "uid-web"
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 48},
		cluster.Batch{At: t0, Objects: append(objs, web), Watch: cluster.WatchStatus{Synced: true, Connected: true, Since: t0}})
	before := drawnPlain(m)
	if !strings.Contains(before, "web") || !strings.Contains(before, "1/4/4") {
		t.Fatalf("the fleet does not show both rollouts at 1 of 4 updated:\n%s", before)
	}
	web = web.DeepCopy()
	web.Status.UpdatedReplicas = 2
	next, cmd := m.Update(cluster.Batch{At: t0.Add(time.Second), Objects: []runtime.Object{web}, Watch: c.Watch()})
	m = next.(Model)
	if drawnPlain(m) != before || cmd == nil {
		t.Fatalf("a row's counts were drawn before the end of the fleet's pace:\n%s", drawnPlain(m))
	}
	m = send(m, paceMsg{})
	if out := drawnPlain(m); !strings.Contains(out, "2/4/4") {
		t.Errorf("the held row is not shown at the end of the fleet's pace:\n%s", out)
	}

	web = web.DeepCopy()
	web.Status.UpdatedReplicas, web.Status.Replicas, web.Status.ReadyReplicas = 4, 4, 4
	m = send(m, cluster.Batch{At: t0.Add(2 * time.Second), Objects: []runtime.Object{web}, Watch: c.Watch()})
	if out := drawnPlain(m); !strings.Contains(out, "complete") {
		t.Errorf("a finished rollout waited for the end of the fleet's pace:\n%s", out)
	}

	m = send(m, press("enter")) // the most urgent row: api, crash-looping
	api := objs[0].(*appsv1.Deployment).DeepCopy()
	api.Status.UpdatedReplicas = 2
	next, _ = m.Update(cluster.Batch{At: t0.Add(3 * time.Second), Objects: []runtime.Object{api}, Watch: c.Watch()})
	if out := drawnPlain(next.(Model)); !strings.Contains(out, "2 out of 4 new replicas") {
		t.Errorf("the workload's page waited for the fleet's pace:\n%s", out)
	}
}

func TestAFinishedRolloutIsShownAtOnce(t *testing.T) {
	m, c := pacedModel(t)
	d := stuckRollout()[0].(*appsv1.Deployment)
	d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas = 4, 4, 4, 4
	m = send(m, cluster.Batch{At: t0.Add(time.Second), Objects: []runtime.Object{d}, Watch: c.Watch()})
	if out := drawnPlain(m); !strings.Contains(out, `successfully rolled out`) {
		t.Errorf("a finished rollout waited for the end of the pace:\n%s", out)
	}
}

func TestAKeyRedrawsAHeldFrame(t *testing.T) {
	m, c := pacedModel(t)
	before := drawnPlain(m)
	rs := stuckRollout()[2].(*appsv1.ReplicaSet)
	m = send(m, cluster.Batch{At: t0.Add(time.Second), Objects: []runtime.Object{apiPod(rs, "f6", "", unschedulable)}, Watch: c.Watch()})
	if drawnPlain(m) != before {
		t.Fatal("a held batch changed the frame")
	}
	m = send(m, press("tab"))
	if out := drawnPlain(m); out == before || !strings.Contains(out, "api-8c7b5d6f4-e5") {
		t.Errorf("the focus moved but the frame drawn before the batch was kept:\n%s", out)
	}
}

// BenchmarkViewAfterHeldBatch is what Bubble Tea's View costs after a batch
// the pace holds back (the frame drawn last), beside drawing it again.
//
//	go test ./ui/ -run '^$' -bench ViewAfterHeldBatch -benchmem
func BenchmarkViewAfterHeldBatch(b *testing.B) {
	m, c := pacedModel(b)
	rs := stuckRollout()[2].(*appsv1.ReplicaSet)
	m = send(m, cluster.Batch{At: t0.Add(time.Second), Objects: []runtime.Object{apiPod(rs, "f6", "", unschedulable)}, Watch: c.Watch()})
	b.Run("held", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = m.View()
		}
	})
	b.Run("drawn-again", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = m.Render()
		}
	})
}

// While paced refreshes keep the screen fresh, the once-a-second tick reads
// and draws nothing; once a second has passed without one, it refreshes.
func TestATickRightAfterAPacedRefreshDrawsNothing(t *testing.T) {
	src := midRollout()
	m := New(Options{Cluster: src, Namespace: "shop", Deployment: "frontend", Context: "kind-dev",
		Theme: themes.Dark(), Clock: fixedClock, Pace: time.Hour})
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40}, paceMsg{})
	before, reads := m.View().Content, src.rolloutReads
	next, cmd := m.Update(tickMsg(t0))
	m = next.(Model)
	if src.rolloutReads != reads || m.frame.look != m.look {
		t.Errorf("a tick a moment after a refresh read the views again (%d reads) or asked for a new frame", src.rolloutReads-reads)
	}
	if cmd == nil || m.View().Content != before {
		t.Fatal("the skipped tick did not come back, or the frame changed")
	}
	m.pace.last = time.Now().Add(-time.Second)
	next, cmd = m.Update(tickMsg(t0))
	if src.rolloutReads == reads || cmd == nil {
		t.Error("a tick a second after the last refresh did not refresh, or stopped ticking")
	}
	_ = next
}

// The same Deployment in two clusters, finished in one and stuck in the
// other, is two rollouts: a batch of the stuck one that changes nothing of
// its flags waits for the end of the pace like any other.
func TestTheSameRolloutInTwoClustersIsTwoRollouts(t *testing.T) {
	east, west := cluster.NewCluster().Named("east"), cluster.NewCluster().Named("west")
	m := New(Options{Cluster: east, Context: "east", Namespace: "shop", Clock: fixedClock, Pace: time.Hour,
		Also: []Options{{Cluster: west, Context: "west", Namespace: "shop"}}})
	synced := cluster.WatchStatus{Synced: true, Connected: true, Since: t0}
	done := stuckRollout()[0].(*appsv1.Deployment)
	done.Status.Replicas, done.Status.UpdatedReplicas, done.Status.ReadyReplicas, done.Status.AvailableReplicas = 4, 4, 4, 4
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 48},
		cluster.Batch{Cluster: "east", At: t0, Objects: stuckRollout(), Watch: synced},
		cluster.Batch{Cluster: "west", At: t0, Objects: append(stuckRollout()[1:], done), Watch: synced})
	rs := stuckRollout()[2].(*appsv1.ReplicaSet)
	_, cmd := m.Update(cluster.Batch{Cluster: "east", At: t0.Add(time.Second), Watch: synced,
		Objects: []runtime.Object{stuckRollout()[0], apiPod(rs, "f6", "", unschedulable)}})
	if cmd == nil {
		t.Errorf("east's batch, which turned nothing of east's rollout, was shown at once: west's rollout was taken for east's")
	}
}
