package cluster_test

import (
	"fmt"
	"testing"
	"time"

	"rollscope/model"
	"rollscope/model/cluster"
)

// A roll of 5,000 nodes (the scalability envelope's) gathered as the Nodes
// pane does on every refresh while it runs: the group's state, counts and
// what it waits for, here its last node (by name) booting.
func BenchmarkGroupRollsFiveThousandNodes(b *testing.B) {
	const n = 5000
	rows := make([]cluster.NodeRow, n)
	for i := range rows {
		rows[i] = cluster.NodeRow{Name: fmt.Sprintf("nodes-%04d", i), Group: "nodes", Ready: i != n-1,
			Progress: model.NodeProgress{Roll: model.NodeRoll{State: model.RollRunning, Count: n, Size: n}}}
	}
	b.ReportAllocs()
	for b.Loop() {
		if g := cluster.GroupRolls(rows); len(g) != 1 || g[0].AwaitsReady != "nodes-4999" {
			b.Fatalf("GroupRolls = %+v, want one roll waiting for nodes-4999", g)
		}
	}
}

// What the Nodes pane notes on the timeline after each refresh of 5,000
// nodes, none of them draining or rolling: nothing, as cheaply as it can.
func BenchmarkNodeNotesFiveThousandQuietNodes(b *testing.B) {
	rows := make([]cluster.NodeRow, 5000)
	for i := range rows {
		rows[i] = cluster.NodeRow{Name: fmt.Sprintf("nodes-%04d", i), Group: "nodes", Ready: true}
	}
	var notes cluster.NodeProgressNotes
	notes.Changes(rows, time.Time{})
	b.ReportAllocs()
	for b.Loop() {
		if e := notes.Changes(rows, time.Time{}); len(e) != 0 {
			b.Fatalf("notes %v on quiet nodes", e)
		}
	}
}
