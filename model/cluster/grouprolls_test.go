package cluster_test

import (
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model"
	"rollscope/model/cluster"
)

func annotatedNode(name, group string, ann map[string]string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: "1",
		Labels: map[string]string{model.NodeGroupLabel: group}, Annotations: ann}}
}

// The drain and roll annotations are all a restarted console has: what it
// reads from them is what it shows.
func TestNodeProgressIsReadFromTheAnnotations(t *testing.T) {
	roll := `{"id":"2026-11-21T09:00:00Z","group":"nodes","step":true,"count":3}`
	blocked := "default/api-1: PodDisruptionBudget default/api allows 0 disruptions (6 healthy, 6 needed); default/api-2: PodDisruptionBudget default/api allows 0 disruptions (6 healthy, 6 needed)"
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{Objects: []runtime.Object{
		annotatedNode("nodes-1", "nodes", map[string]string{
			model.DrainRequestAnnotation: "{}", model.DrainStateAnnotation: "blocked", model.DrainPodsLeftAnnotation: "2",
			model.DrainBlockedAnnotation: blocked, model.RollAnnotation: roll, model.RollStateAnnotation: "waiting",
			model.RollNodeAnnotation: "draining", model.RollFailsAtAnnotation: "soon"}),
		annotatedNode("nodes-2", "nodes", map[string]string{model.RollAnnotation: roll, model.RollStateAnnotation: "waiting",
			model.RollFailsAtAnnotation: "2026-11-21T09:15:00Z"}),
		annotatedNode("nodes-3", "nodes", map[string]string{model.RollAnnotation: roll, model.RollStateAnnotation: "running",
			model.RollNodeAnnotation: "drained", model.RollMessageAnnotation: "left cordoned"}),
		annotatedNode("other-1", "other", map[string]string{model.DrainStateAnnotation: "failed",
			model.DrainMessageAnnotation: "drain did not complete within 10s"}),
	}})
	rows := c.Nodes()
	got := rows[0].Progress
	want := model.NodeProgress{DrainRequested: true, PodsLeft: 2, PodsLeftKnown: true,
		Blocked: []string{
			"default/api-1: PodDisruptionBudget default/api allows 0 disruptions (6 healthy, 6 needed)",
			"default/api-2: PodDisruptionBudget default/api allows 0 disruptions (6 healthy, 6 needed)"},
		Roll: model.NodeRoll{ID: "2026-11-21T09:00:00Z", State: "waiting", Step: "draining", Stepping: true, Count: 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("nodes-1 progress\n got %+v\nwant %+v", got, want)
	}
	if p := rows[3].Progress; p.DrainMessage != "drain did not complete within 10s" || p.Roll.State != "" || p.PodsLeftKnown {
		t.Errorf("other-1 progress %+v: want the failure message, no roll, pods left unknown", p)
	}

	rolls := cluster.GroupRolls(rows)
	wantRolls := []cluster.GroupRoll{{Group: "nodes", ID: "2026-11-21T09:00:00Z", State: "waiting", Message: "left cordoned",
		Stepping: true, Count: 3, Left: 3, Draining: 1, Drained: 1, FailsAt: time.Date(2026, 11, 21, 9, 15, 0, 0, time.UTC)}}
	if !reflect.DeepEqual(rolls, wantRolls) {
		t.Errorf("GroupRolls\n got %+v\nwant %+v", rolls, wantRolls)
	}
	if g, ok := cluster.RollOf(rows, "nodes"); !ok || !g.Active() {
		t.Errorf("RollOf(nodes) = %+v, %v: want the waiting roll, active", g, ok)
	}
	if _, ok := cluster.RollOf(rows, "other"); ok {
		t.Error("group other has no roll, yet RollOf found one")
	}
}

// While the controller writes the new state node by node, a tie goes to
// the state that still has work to do, so the console never shows a roll
// as over too early.
func TestGroupRollPrefersTheActiveStateOnATie(t *testing.T) {
	rows := []cluster.NodeRow{
		{Name: "a", Group: "g", Progress: model.NodeProgress{Roll: model.NodeRoll{State: "stopped"}}},
		{Name: "b", Group: "g", Progress: model.NodeProgress{Roll: model.NodeRoll{State: "paused"}}},
	}
	if g, _ := cluster.RollOf(rows, "g"); g.State != "paused" {
		t.Errorf("state %q, want paused", g.State)
	}
}

// A running roll that drains nothing waits, between nodes, for every node
// to be Ready (kops' validation): the first NotReady node by name is the
// one it names. Not while it drains, nor paused; behind another group's
// roll, that roll is what it waits for.
func TestGroupRollNamesTheNodeItWaitsToSeeReady(t *testing.T) {
	in := func(state, step string) model.NodeProgress {
		return model.NodeProgress{Roll: model.NodeRoll{State: state, Step: step}}
	}
	for _, tc := range []struct {
		name      string
		rows      []cluster.NodeRow
		want      string
		wantNodes int // how many more Ready nodes it waits for
	}{
		{"a replacement booting", []cluster.NodeRow{
			{Name: "nodes-1", Group: "nodes", Ready: true, Progress: in("running", "")},
			{Name: "nodes-5", Group: "nodes"},
			{Name: "nodes-4", Group: "nodes"},
		}, "nodes-4", 0},
		{"a node of another group", []cluster.NodeRow{
			{Name: "b-1", Group: "b"},
			{Name: "nodes-1", Group: "nodes", Ready: true, Progress: in("running", "")},
		}, "b-1", 0},
		{"every node Ready", []cluster.NodeRow{
			{Name: "nodes-1", Group: "nodes", Ready: true, Progress: in("running", "")},
		}, "", 0},
		// On a live cluster without --delete-nodes a drained node stays,
		// cordoned, for the user's machinery to replace: it no longer counts.
		{"a node left drained, its replacement not yet there", []cluster.NodeRow{
			{Name: "nodes-1", Group: "nodes", Ready: true, Progress: model.NodeProgress{Roll: model.NodeRoll{State: "running", Size: 2}}},
			{Name: "nodes-2", Group: "nodes", Ready: true, Progress: model.NodeProgress{Roll: model.NodeRoll{State: "running", Step: "drained", Size: 2}}},
		}, "", 1},
		{"a node draining", []cluster.NodeRow{
			{Name: "nodes-1", Group: "nodes", Ready: true, Progress: in("running", "draining")},
			{Name: "nodes-4", Group: "nodes"},
		}, "", 0},
		{"paused", []cluster.NodeRow{
			{Name: "nodes-1", Group: "nodes", Ready: true, Progress: in("paused", "")},
			{Name: "nodes-4", Group: "nodes"},
		}, "", 0},
		{"another group rolling", []cluster.NodeRow{
			{Name: "a-1", Group: "a", Ready: true, Progress: in("running", "")},
			{Name: "nodes-1", Group: "nodes", Ready: true, Progress: in("running", "")},
			{Name: "nodes-4", Group: "nodes"},
		}, "", 0},
	} {
		g, _ := cluster.RollOf(tc.rows, "nodes")
		if g.AwaitsReady != tc.want || g.AwaitsNodes != tc.wantNodes {
			t.Errorf("%s: awaits %q and %d more Ready nodes, want %q and %d", tc.name, g.AwaitsReady, g.AwaitsNodes, tc.want, tc.wantNodes)
		}
		if tc.name == "another group rolling" && g.AwaitsRoll != "a" {
			t.Errorf("%s: awaits the roll of %q, want a's (the same role, an earlier name)", tc.name, g.AwaitsRoll)
		}
	}
}
