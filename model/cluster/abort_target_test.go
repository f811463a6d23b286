package cluster

import "testing"

// The abort goes back to the old ReplicaSet that was serving: the most
// available pods, the newest revision on a tie; the new and the stable
// ReplicaSets are never candidates.
func TestAbortTargetIsTheServingOldReplicaSet(t *testing.T) {
	rs := func(rev int64, role ReplicaSetRole, avail int32) ReplicaSetRow {
		return ReplicaSetRow{Revision: rev, Role: role, Available: avail}
	}
	for _, tc := range []struct {
		name string
		rss  []ReplicaSetRow
		want int64
		ok   bool
	}{
		{"most available", []ReplicaSetRow{rs(3, RoleNew, 9), rs(2, RoleOld, 8), rs(1, RoleOld, 0)}, 2, true},
		{"older serves more", []ReplicaSetRow{rs(4, RoleNew, 2), rs(3, RoleOld, 1), rs(2, RoleOld, 5)}, 2, true},
		{"newest on a tie", []ReplicaSetRow{rs(3, RoleNew, 1), rs(1, RoleOld, 0), rs(2, RoleOld, 0)}, 2, true},
		{"first rollout", []ReplicaSetRow{rs(1, RoleNew, 3)}, 0, false},
		{"finished", []ReplicaSetRow{rs(2, RoleStable, 3)}, 0, false},
	} {
		got, ok := AbortTarget(RolloutView{ReplicaSets: tc.rss})
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: AbortTarget = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
