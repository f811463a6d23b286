package fleet

import (
	"testing"

	"rollscope/model/cluster"
	"rollscope/model/kind"
)

// Without a control plane: the test reads --plain -A's lines as
// cluster.FleetLine writes them, so a change of that format fails here
// first, not as a vague disagreement on the live cluster.
func TestFleetLinesAreReadBack(t *testing.T) {
	for _, r := range []cluster.FleetRow{
		{Namespace: teamB, Kind: kind.Deployment, Name: "ledger", Revision: 2, Desired: 2, Updated: 1, Available: 2,
			Images: []string{"app=" + image("ledger", "v2-missing")}, From: []string{"app=" + image("ledger", "v1")},
			State: cluster.FleetFailed, Word: "failed", Why: `ReplicaSet "ledger-7d9" has timed out progressing.`},
		{Namespace: teamC, Kind: kind.DaemonSet, Name: "log-agent", Revision: 1, Desired: 3, Updated: 3, Available: 3,
			State: cluster.FleetComplete, Word: "complete"},
		{Namespace: "pay", Kind: kind.Deployment, Name: "api", Revision: 4, Desired: 10, Updated: 5, Available: 9,
			State: cluster.FleetCanary, Word: "canary step 2/4", Why: "waiting for 5 new pods 2/10 rolling"},
		{Namespace: "ops", Kind: kind.StatefulSet, Name: "db", Revision: 3, Desired: 3, Updated: 3, Available: 2,
			State: cluster.FleetNodeRoll, Word: "node roll"},
	} {
		line := cluster.FleetLine(r)
		key, s, ok := parseFleetLine(line)
		if !ok {
			t.Errorf("%q is not read as a fleet line", line)
			continue
		}
		want := [3]int32{r.Desired, r.Updated, r.Available}
		if key != r.Namespace+" "+r.Ref() || s.State != r.State || *s.Revision != r.Revision || *s.Counts != want {
			t.Errorf("%q read as %s %s", line, key, s)
		}
	}
	if _, _, ok := parseFleetLine("Waiting for deployment \"web\" rollout to finish: 1 of 2 updated replicas are available..."); ok {
		t.Error("a rollout status line is read as a fleet line")
	}
}

// The console's rows are read by name and the first state word after it;
// the reason and the change-cause further right may use state words too.
func TestScreenRowsAreRead(t *testing.T) {
	screen := `rollscope  e2e  all namespaces
 NAMESPACE  KIND    NAME        REV  IMAGES                                   PROGRESS   STATE          AGE  CHANGE-CAUSE
 team-b     deploy  ledger      2    e2e.example/ledger:v1 → v2-missing       1/2 2/2    failed         40s  roll ledger to v2 (rolling)
 team-c     deploy  search      2    e2e.example/search:v2-crash              1/2 2/2    crash-looping  38s  roll search to v2
 team-a     deploy  checkout    1    e2e.example/checkout:v2                  0/2 2/2    paused         35s  the rollout was paused
 team-c     ds      log-agent   1    e2e.example/log-agent:v1                 3/3 3/3    complete       1m
ledger: progress deadline exceeded — the rollout has failed`
	rows := screenRows(screen)
	want := map[string]cluster.FleetState{
		teamB + " deploy/ledger":   cluster.FleetFailed,
		teamC + " deploy/search":   cluster.FleetCrashLooping,
		teamA + " deploy/checkout": cluster.FleetPaused,
		teamC + " ds/log-agent":    cluster.FleetComplete,
	}
	if len(rows) != len(want) {
		t.Errorf("read %d rows, want %d: %v", len(rows), len(want), rows)
	}
	for k, st := range want {
		if rows[k].State != st {
			t.Errorf("%s read as %s, want %s", k, rows[k].State, st)
		}
	}
	if first := firstRow(screen); first != "ledger" {
		t.Errorf("first row %q, want ledger", first)
	}
}

// Where the API moved between the two reads around a look at rollscope,
// either state is the truth; where it did not, only that one.
func TestDisagreements(t *testing.T) {
	rolling := apiRow{State: cluster.FleetRolling, Revision: 2, Desired: 2, Updated: 1, Available: 2}
	done := apiRow{State: cluster.FleetComplete, Revision: 2, Desired: 2, Updated: 2, Available: 2}
	gw := workload{teamD, short(kind.Deployment), "gateway", cluster.FleetComplete}
	rev := int64(2)
	saw := func(st cluster.FleetState) map[string]shown {
		return map[string]shown{gw.key(): {State: st, Revision: &rev}}
	}
	for _, c := range []struct {
		name          string
		before, after apiRow
		seen          map[string]shown
		off           int
	}{
		{"still rolling, shown rolling", rolling, rolling, saw(cluster.FleetRolling), 0},
		{"still rolling, shown complete", rolling, rolling, saw(cluster.FleetComplete), 1},
		{"finished meanwhile, shown rolling", rolling, done, saw(cluster.FleetRolling), 0},
		{"finished meanwhile, shown complete", rolling, done, saw(cluster.FleetComplete), 0},
		{"finished meanwhile, shown failed", rolling, done, saw(cluster.FleetFailed), 1},
		{"not shown", done, done, map[string]shown{}, 1},
		{"one more shown", done, done, map[string]shown{gw.key(): {State: cluster.FleetComplete}, "team-x deploy/other": {}}, 1},
	} {
		off := disagreements(truth{gw.key(): c.before}, truth{gw.key(): c.after}, c.seen, []workload{gw})
		if len(off) != c.off {
			t.Errorf("%s: %q, want %d disagreements", c.name, off, c.off)
		}
	}
}
