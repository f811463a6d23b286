package cluster_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"rollscope/model"
	"rollscope/model/cluster"
)

func TestNodeProgressNotesNoteEachChangeOnce(t *testing.T) {
	roll := func(state, message, step string) model.NodeProgress {
		return model.NodeProgress{Roll: model.NodeRoll{ID: "r1", State: state, Message: message, Step: step, Count: 2}}
	}
	node := func(name, group, drain string, p model.NodeProgress) cluster.NodeRow {
		return cluster.NodeRow{Name: name, Group: group, Drain: drain, Progress: p}
	}
	blocked := model.NodeProgress{DrainRequested: true, Blocked: []string{"web/a: PodDisruptionBudget web/pdb allows 0 disruptions (2 healthy, 2 needed)", "web/b: ..."}}
	steps := []struct {
		name string
		rows []cluster.NodeRow
		want []string // "object: message", "!" after a warning
	}{
		{"a console started mid-roll says what it found", []cluster.NodeRow{
			node("a-1", "a", model.DrainBlocked, blocked),
			node("b-1", "b", "", roll(model.RollWaiting, "", model.RollStepDrained)),
			node("c-1", "c", "", model.NodeProgress{}),
		}, []string{
			"node/a-1: drain blocked: web/a: PodDisruptionBudget web/pdb allows 0 disruptions (2 healthy, 2 needed) !",
			"nodegroup/b: roll waiting",
		}},
		{"nothing changed, nothing to say", []cluster.NodeRow{
			node("a-1", "a", model.DrainBlocked, blocked),
			node("b-1", "b", "", roll(model.RollWaiting, "", model.RollStepDrained)),
		}, nil},
		{"a draining node's warnings wait for the outcome; another tool's state is not noted", []cluster.NodeRow{
			node("a-1", "a", model.DrainDraining, model.NodeProgress{DrainMessage: "ignoring DaemonSet-managed Pods: kube-system/proxy"}),
			node("a-2", "a", "evicting 2 pods", model.NodeProgress{}),
			node("b-1", "b", "", roll(model.RollRunning, "", model.RollStepDrained)),
		}, []string{
			"node/a-1: drain draining",
			"nodegroup/b: roll running",
		}},
		{"drained with warnings, failed with why, a failed roll with why", []cluster.NodeRow{
			node("a-1", "a", model.DrainDrained, model.NodeProgress{DrainMessage: "ignoring DaemonSet-managed Pods: kube-system/proxy"}),
			node("a-2", "a", model.DrainFailed, model.NodeProgress{DrainMessage: "drain did not complete within 10s; the node stays cordoned"}),
			node("b-1", "b", "", roll(model.RollFailed, "drain of b-1 failed", model.RollStepDraining)),
		}, []string{
			"node/a-1: drain drained: ignoring DaemonSet-managed Pods: kube-system/proxy",
			"node/a-2: drain failed: drain did not complete within 10s; the node stays cordoned !",
			"nodegroup/b: roll failed: drain of b-1 failed !",
		}},
		{"rolls whose last node was replaced are done, by group", []cluster.NodeRow{
			node("a-1", "a", model.DrainDrained, model.NodeProgress{DrainMessage: "ignoring DaemonSet-managed Pods: kube-system/proxy"}),
			node("z-1", "z", "", roll(model.RollRunning, "", "")),
		}, []string{
			"nodegroup/z: roll running",
			"nodegroup/b: roll done: every node it replaced is gone",
		}},
		{"a node that comes back is noted again", []cluster.NodeRow{
			node("a-1", "a", model.DrainDrained, model.NodeProgress{}),
			node("a-2", "a", model.DrainFailed, model.NodeProgress{}),
			node("z-1", "z", "", roll(model.RollRunning, "", "")),
		}, []string{
			"node/a-2: drain failed !",
		}},
		{"a drain's state cleared says nothing", []cluster.NodeRow{
			node("a-1", "a", "", model.NodeProgress{}),
			node("a-2", "a", model.DrainFailed, model.NodeProgress{}),
			node("z-1", "z", "", roll(model.RollRunning, "", "")),
		}, nil},
		{"the same node drained again is noted again", []cluster.NodeRow{
			node("a-1", "a", model.DrainDraining, model.NodeProgress{}),
			node("a-2", "a", model.DrainFailed, model.NodeProgress{}),
			node("z-1", "z", "", roll(model.RollRunning, "", "")),
		}, []string{
			"node/a-1: drain draining",
		}},
	}
	var notes cluster.NodeProgressNotes
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	for i, st := range steps {
		at = at.Add(time.Second)
		var got []string
		for _, e := range notes.Changes(st.rows, at) {
			if e.Time != at || e.Kind != cluster.TimelineAction {
				t.Errorf("%s: entry %+v, want one at %v of kind action", st.name, e, at)
			}
			line := fmt.Sprintf("%s: %s", e.Object, e.Message)
			if e.Warning {
				line += " !"
			}
			got = append(got, line)
		}
		if !slices.Equal(got, st.want) {
			t.Errorf("step %d, %s:\n got %q\nwant %q", i, st.name, got, st.want)
		}
	}
}

func TestNodeProgressNotesEndSeveralRollsInGroupOrder(t *testing.T) {
	var notes cluster.NodeProgressNotes
	var rows []cluster.NodeRow
	for _, g := range []string{"c", "a", "b"} {
		rows = append(rows, cluster.NodeRow{Name: g + "-1", Group: g, Progress: model.NodeProgress{Roll: model.NodeRoll{State: model.RollRunning}}})
	}
	notes.Changes(rows, time.Time{})
	var got []string
	for _, e := range notes.Changes(nil, time.Time{}) {
		got = append(got, e.Object)
	}
	if want := []string{"nodegroup/a", "nodegroup/b", "nodegroup/c"}; !slices.Equal(got, want) {
		t.Errorf("ended rolls noted as %q, want %q", got, want)
	}
}
