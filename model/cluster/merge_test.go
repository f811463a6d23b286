package cluster_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"rollscope/model/cluster"
	"rollscope/model/kind"
)

// clusterRows are n rows of one cluster, sorted as its picture hands them
// out: states, ages, namespaces and names drawn so that many rows tie on
// all but a few keys.
func clusterRows(r *rand.Rand, name string, n int) []cluster.FleetRow {
	at := time.Unix(1000, 0)
	kinds := []kind.Kind{kind.Deployment, kind.StatefulSet, kind.DaemonSet}
	rows := make([]cluster.FleetRow, n)
	for i := range rows {
		rows[i] = cluster.FleetRow{
			Cluster: name, State: cluster.FleetState(r.IntN(4)), Changed: at.Add(time.Duration(r.IntN(5)) * time.Second),
			Namespace: fmt.Sprintf("team-%d", r.IntN(3)), Kind: kinds[r.IntN(len(kinds))], Name: fmt.Sprintf("svc-%d", r.IntN(n)),
		}
	}
	cluster.SortFleet(rows)
	return rows
}

// The merge of the clusters' sorted rows is the order sorting them all
// again gives, whatever their sizes (none, one, many rows each).
func TestMergeFleetsIsTheSortOfAll(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var buf []cluster.FleetRow // reused, as the fleet page does
	for trial := range 200 {
		lists := make([][]cluster.FleetRow, 2+r.IntN(3))
		var all []cluster.FleetRow
		for i := range lists {
			lists[i] = clusterRows(r, fmt.Sprintf("c%d", r.IntN(3)), r.IntN(40))
			all = append(all, lists[i]...)
		}
		cluster.SortFleet(all)
		got := cluster.MergeFleets(buf, slices.Clone(lists)...)
		buf = got
		if len(got) != len(all) || len(all) > 0 && !reflect.DeepEqual(got, all) {
			t.Fatalf("trial %d: the merge is not the sort of every row:\n got %v\nwant %v", trial, got, all)
		}
	}
}

// Three clusters of 700 workloads each, the fleet merged once a refresh.
func BenchmarkMergeFleets(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	lists := [][]cluster.FleetRow{clusterRows(r, "eu-west", 700), clusterRows(r, "us-east", 700), clusterRows(r, "ap-south", 700)}
	var buf []cluster.FleetRow
	b.Run("merge", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = cluster.MergeFleets(buf, lists...)
		}
	})
	// What the merge replaces: every row sorted again.
	b.Run("sort-all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = append(append(append(buf[:0], lists[0]...), lists[1]...), lists[2]...)
			cluster.SortFleet(buf)
		}
	})
}
