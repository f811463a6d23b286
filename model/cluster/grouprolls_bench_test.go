package cluster_test

import (
	"fmt"
	"testing"

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
