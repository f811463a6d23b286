package cluster_test

import (
	"testing"
	"time"

	"rollscope/model/cluster"
)

func TestCtxFilterKeepsOneCluster(t *testing.T) {
	f, err := cluster.ParseFleetFilter("ctx:east web")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		row  cluster.FleetRow
		want bool
	}{
		{cluster.FleetRow{Cluster: "east", Namespace: "shop", Name: "web"}, true},
		{cluster.FleetRow{Cluster: "west", Namespace: "shop", Name: "web"}, false},
		{cluster.FleetRow{Cluster: "east", Namespace: "shop", Name: "api"}, false},
	} {
		if got := f.Match(c.row); got != c.want {
			t.Errorf("ctx:east web on %s/%s: %v, want %v", c.row.Cluster, c.row.Name, got, c.want)
		}
	}
}

func TestMergeFleetsRanksAcrossClusters(t *testing.T) {
	at := time.Unix(1000, 0)
	east := []cluster.FleetRow{{Cluster: "east", Name: "web", State: cluster.FleetRolling, Changed: at}, {Cluster: "east", Name: "db", State: cluster.FleetComplete, Changed: at}}
	west := []cluster.FleetRow{{Cluster: "west", Name: "web", State: cluster.FleetFailed, Changed: at}, {Cluster: "west", Name: "db", State: cluster.FleetComplete, Changed: at}}
	got := cluster.MergeFleets(east, west)
	var order []string
	for _, r := range got {
		order = append(order, r.Cluster+"/"+r.Name)
	}
	want := []string{"west/web", "east/web", "east/db", "west/db"}
	if len(order) != len(want) {
		t.Fatalf("merged %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("merged %v, want %v: by urgency across clusters", order, want)
		}
	}
	if one := cluster.MergeFleets(east); &one[0] != &east[0] {
		t.Errorf("one cluster's fleet was copied: the merge of one list is that list")
	}
}

func TestLastKnownSaysAgeAndWhy(t *testing.T) {
	now := time.Unix(1000, 0)
	for _, c := range []struct {
		w    cluster.WatchStatus
		want string
	}{
		{cluster.WatchStatus{Synced: true, Connected: true}, ""},
		{cluster.WatchStatus{Synced: false, Problem: "connection refused"}, ""},
		{cluster.WatchStatus{Synced: true, Problem: "connection refused", Since: now.Add(-12 * time.Second)}, "last known 12s ago: connection refused"},
		{cluster.WatchStatus{Synced: true, Unanswered: true, Problem: "the API server has not answered for 4s", Since: now.Add(-4 * time.Second)},
			"last known 4s ago: the API server has not answered for 4s"},
	} {
		if got := c.w.LastKnown(now); got != c.want {
			t.Errorf("%+v: %q, want %q", c.w, got, c.want)
		}
	}
}

func TestANamedPicturesRowsKnowTheirCluster(t *testing.T) {
	c := cluster.NewCluster().Named("eu-west")
	c.Apply(cluster.Batch{Objects: newMidRollout().objects(), Watch: cluster.WatchStatus{Synced: true, Connected: true}})
	rows := c.Fleet("", time.Now())
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range rows {
		if r.Cluster != "eu-west" {
			t.Errorf("row %s is of cluster %q, want eu-west", r.Ref(), r.Cluster)
		}
	}
	if line := cluster.FleetLine(rows[0]); line[:8] != "eu-west " {
		t.Errorf("the plain line %q does not start with its context", line)
	}
}

// The same workload in three regions is one row: the failing region's,
// saying what each region runs and how it is.
func TestGroupFleetIsOneRowPerWorkloadAcrossClusters(t *testing.T) {
	at := time.Unix(1000, 0)
	row := func(ctx string, rev int64, image, word string, state cluster.FleetState) cluster.FleetRow {
		return cluster.FleetRow{Cluster: ctx, Namespace: "shop", Kind: "Deployment", Name: "web", Revision: rev,
			Images: []string{"app=" + image}, Word: word, State: state, Changed: at}
	}
	rows := []cluster.FleetRow{
		row("ap-south", 2, "web:2.0", "failed", cluster.FleetFailed),
		row("eu-west", 2, "web:2.0", "complete", cluster.FleetComplete),
		{Cluster: "eu-west", Namespace: "shop", Kind: "Deployment", Name: "db", State: cluster.FleetComplete, Word: "complete"},
		row("us-east", 1, "web:1.9", "complete", cluster.FleetComplete),
	}
	got := cluster.GroupFleet(rows)
	if len(got) != 2 || got[0].Name != "web" || got[1].Name != "db" {
		t.Fatalf("grouped %+v, want web then db", got)
	}
	web := got[0]
	if web.Cluster != "ap-south" || web.State != cluster.FleetFailed || web.Others != 2 ||
		web.Spread != "ap-south rev 2 web:2.0 failed · eu-west rev 2 web:2.0 complete · us-east rev 1 web:1.9 complete" {
		t.Errorf("web grouped as %+v", web)
	}
	if got[1].Others != 0 || got[1].Spread != "" {
		t.Errorf("db, in one cluster, grouped as %+v", got[1])
	}
}
