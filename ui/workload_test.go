package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// workloadFixture is the mid-rollout deployment picture plus one
// StatefulSet half way through a partitioned canary and one DaemonSet
// surging on a node.
type workloadFixture struct {
	*fakeSource
}

func (workloadFixture) StatefulSet(ns, name string, _ time.Time) (cluster.StatefulSetView, bool) {
	if ns != "shop" || name != "db" {
		return cluster.StatefulSetView{}, false
	}
	diff := []cluster.DiffLine{{Op: ' ', Text: "containers:"}, {Op: '-', Text: "  image: postgres:15.5"}, {Op: '+', Text: "  image: postgres:15.4"}}
	cells := []cluster.OrdinalCell{}
	for ord := range 5 {
		c := cluster.OrdinalCell{Ordinal: ord, Pod: model.StatefulPodName("db", ord), Exists: true, State: cluster.PodReady, BelowPartition: ord < 3}
		c.Updated = ord >= 3
		if ord == 3 {
			c.State = cluster.PodNotReady
		}
		cells = append(cells, c)
	}
	return cluster.StatefulSetView{
		Namespace: "shop", Name: "db", Replicas: 5, Policy: "OrderedReady", Strategy: "RollingUpdate", Partition: 3,
		MaxUnavailable: 1, CurrentRevision: "db-6f7f7787dc", UpdateRevision: "db-6fb85f55f8", Ready: 4, Available: 4, Current: 3, Updated: 2,
		Containers: []string{"db=postgres:15.5"}, Unavailable: model.Headroom{Used: 1, Limit: 1}, Ordinals: cells,
		Status: "Waiting for 1 pods to be ready...",
		History: []cluster.WorkloadRevision{
			{Revision: 1, Name: "db-6f7f7787dc", Images: []string{"db=postgres:15.4"}, Diff: diff},
			{Revision: 2, Name: "db-6fb85f55f8", Images: []string{"db=postgres:15.5"}, Current: true},
		},
	}, true
}

func (workloadFixture) DaemonSet(ns, name string, _ time.Time) (cluster.DaemonSetView, bool) {
	if ns != "shop" || name != "agent" {
		return cluster.DaemonSetView{}, false
	}
	pods := func(states ...cluster.PodState) []cluster.PodRow {
		var out []cluster.PodRow
		for _, s := range states {
			out = append(out, cluster.PodRow{State: s})
		}
		return out
	}
	return cluster.DaemonSetView{
		Namespace: "shop", Name: "agent", Strategy: "RollingUpdate", MaxSurge: 1, MaxUnavailable: 0,
		Desired: 3, Current: 3, Ready: 3, Updated: 1, Available: 3, Containers: []string{"agent=agent:2"},
		Surge: model.Headroom{Used: 1, Limit: 1}, Unavailable: model.Headroom{Used: 0, Limit: 0},
		Nodes: []cluster.DaemonNodeRow{
			{Node: "nodes-0", State: cluster.DaemonUpdated, Pods: pods(cluster.PodReady)},
			{Node: "nodes-1", State: cluster.DaemonSurging, Pods: pods(cluster.PodReady, cluster.PodNotReady)},
			{Node: "nodes-2", State: cluster.DaemonOld, Pods: pods(cluster.PodReady)},
		},
		Status: `Waiting for daemon set "agent" rollout to finish: 1 out of 3 new pods have been updated...`,
		History: []cluster.WorkloadRevision{
			{Revision: 1, Name: "agent-5d9c8f7b6c", Images: []string{"agent=agent:1"}},
			{Revision: 2, Name: "agent-7b7d5974f6", Images: []string{"agent=agent:2"}, Current: true},
		},
	}, true
}

// ArgoRollout is checkout, an Argo canary paused at its step 2/4 for a
// promote, rolling v1 to v2, its read model's header lines as the view
// makes them.
func (workloadFixture) ArgoRollout(ns, name string, _ time.Time) (cluster.ArgoRolloutView, bool) {
	pods := func(n int, s cluster.PodState) []cluster.PodRow {
		out := make([]cluster.PodRow, n)
		for i := range out {
			out[i].State = s
		}
		return out
	}
	if ns == "shop" && name == "storefront" {
		return storefront(pods), true
	}
	if ns != "shop" || name != "checkout" {
		return cluster.ArgoRolloutView{}, false
	}
	return cluster.ArgoRolloutView{
		Namespace: "shop", Name: "checkout", Strategy: "canary", Phase: "Paused", Message: "CanaryPauseStep",
		Status: "Paused - CanaryPauseStep", Desired: 10, Current: 10, Updated: 1, Ready: 10, Available: 10, Revision: 2,
		StableHash: "5d9c8f7b6c", CurrentHash: "7b7d5974f6", Step: 1, Weight: 10, CanaryPods: 1, Paused: true,
		PauseReason: "CanaryPauseStep", StableImages: []string{"web=shop/checkout:v1"}, CanaryImages: []string{"web=shop/checkout:v2"},
		NotShown: []string{"traffic router (trafficRouting) not shown by rollscope: weights are the pods', not the router's"},
		Header: []string{
			"canary · step 2/4 · pause (until promoted) · actual 1/10 pods",
			"paused (CanaryPauseStep) for 4m12s · waits for a promote",
			"stable web=shop/checkout:v1 · canary web=shop/checkout:v2",
			"traffic router (trafficRouting) not shown by rollscope: weights are the pods', not the router's",
		},
		Steps: []cluster.ArgoStep{
			{Text: "setWeight 10", Done: true},
			{Text: "pause (until promoted)", Current: true, Note: "waiting 4m12s for a promote"},
			{Text: "setWeight 50"},
			{Text: "analysis error-rate"},
		},
		Analysis: []cluster.AnalysisRunView{{Name: "checkout-7b7d5974f6-2", Phase: "Failed", For: "background", Current: true,
			Message: `Metric "error-rate" assessed Failed due to failed (1) > failureLimit (0)`,
			Metrics: []cluster.MetricView{
				{Name: "error-rate", Phase: "Failed", SuccessCondition: "result < 0.05", Last: []string{"0.02", "0.42"}, Count: 2, Successful: 1, Failed: 1,
					Limits: argo.Limits{ConsecutiveError: 4}, Crossed: "failed 1 > limit 0 → Failed"},
				{Name: "latency-p99", Phase: "Successful", SuccessCondition: "result < 300", Last: []string{"212", "198"}, Count: 2, Successful: 2,
					Limits: argo.Limits{Failure: 1, ConsecutiveError: 4}},
			}}, {Name: "checkout-7b7d5974f6-1", Phase: "Successful", For: "step 1"}},
		SurgeLabel: "surge", Surge: model.Headroom{Used: 0, Limit: 3}, Unavailable: model.Headroom{Used: 0, Limit: 2},
		History: []cluster.WorkloadRevision{
			{Revision: 1, Name: "checkout-5d9c8f7b6c", Images: []string{"web=shop/checkout:v1"},
				Diff: []cluster.DiffLine{{Op: ' ', Text: "containers:"}, {Op: '-', Text: "  image: shop/checkout:v2"}, {Op: '+', Text: "  image: shop/checkout:v1"}}},
			{Revision: 2, Name: "checkout-7b7d5974f6", Images: []string{"web=shop/checkout:v2"}, Current: true},
		},
		Refused: map[kind.Verb]string{
			kind.Retry:  "rollout/checkout is not aborted: there is nothing to retry",
			kind.Resume: "rollout/checkout is not paused by hand: it waits at a pause of its own (CanaryPauseStep) — promote it to move on",
		},
		ReplicaSets: []cluster.ReplicaSetRow{
			{Name: "checkout-7b7d5974f6", Hash: "7b7d5974f6", Revision: 2, Role: cluster.RoleNew, Desired: 1, Available: 1, Pods: pods(1, cluster.PodReady)},
			{Name: "checkout-5d9c8f7b6c", Hash: "5d9c8f7b6c", Revision: 1, Role: cluster.RoleStable, Desired: 9, Available: 9, Pods: pods(9, cluster.PodReady)},
		},
	}, true
}

// storefront is an Argo blue/green Rollout awaiting promotion: its
// preview set of v4 up beside the active v3, its pre-promotion analysis
// passed.
func storefront(pods func(int, cluster.PodState) []cluster.PodRow) cluster.ArgoRolloutView {
	return cluster.ArgoRolloutView{
		Namespace: "shop", Name: "storefront", Strategy: "blueGreen", Phase: "Paused", Message: "BlueGreenPause",
		Status: "Paused - BlueGreenPause", Desired: 3, Current: 6, Updated: 3, Ready: 6, Available: 3, Revision: 4,
		StableHash: "6c8f9d7b54", CurrentHash: "84b7c6d9f5", ActiveHash: "6c8f9d7b54", PreviewHash: "84b7c6d9f5", Step: -1,
		ActiveRS: "storefront-6c8f9d7b54", PreviewRS: "storefront-84b7c6d9f5", Paused: true, PauseReason: "BlueGreenPause",
		StableImages: []string{"web=shop/storefront:v3"}, CanaryImages: []string{"web=shop/storefront:v4"},
		StepLine: "active 6c8f9d7b54 · preview 84b7c6d9f5",
		Header: []string{
			"blueGreen · active 6c8f9d7b54 · preview 84b7c6d9f5",
			"paused (BlueGreenPause) for 2m30s · waits for a promote",
			"stable web=shop/storefront:v3 · preview web=shop/storefront:v4",
		},
		SurgeLabel: "preview", Surge: model.Headroom{Used: 3, Limit: 3}, Unavailable: model.Headroom{Used: 0, Limit: 0},
		Analysis: []cluster.AnalysisRunView{{Name: "storefront-84b7c6d9f5-4-pre", Phase: "Successful", For: "pre-promotion", Current: true,
			Metrics: []cluster.MetricView{{Name: "smoke", Phase: "Successful", SuccessCondition: "result == 'ok'", Last: []string{"ok"},
				Count: 1, Successful: 1, Limits: argo.Limits{ConsecutiveError: 4}}}}},
		Refused: map[kind.Verb]string{
			kind.Retry:  "rollout/storefront is not aborted: there is nothing to retry",
			kind.Resume: "rollout/storefront is not paused by hand: it waits at a pause of its own (BlueGreenPause) — promote it to move on",
		},
		ReplicaSets: []cluster.ReplicaSetRow{
			{Name: "storefront-84b7c6d9f5", Hash: "84b7c6d9f5", Revision: 4, Role: cluster.RoleNew, Desired: 3, Available: 3, Pods: pods(3, cluster.PodReady)},
			{Name: "storefront-6c8f9d7b54", Hash: "6c8f9d7b54", Revision: 3, Role: cluster.RoleStable, Desired: 3, Available: 3, Pods: pods(3, cluster.PodReady)},
		},
		History: []cluster.WorkloadRevision{
			{Revision: 3, Name: "storefront-6c8f9d7b54", Images: []string{"web=shop/storefront:v3"},
				Diff: []cluster.DiffLine{{Op: ' ', Text: "containers:"}, {Op: '-', Text: "  image: shop/storefront:v4"}, {Op: '+', Text: "  image: shop/storefront:v3"}}},
			{Revision: 4, Name: "storefront-84b7c6d9f5", Images: []string{"web=shop/storefront:v4"}, Current: true},
		},
	}
}

func typedOpen(what string) []tea.Msg {
	return append(append([]tea.Msg{press(":")}, typed(what)...), press("enter"))
}

func TestWorkloadViewsGolden(t *testing.T) {
	for _, v := range []struct{ name, open string }{{"statefulset", "sts db"}, {"daemonset", "ds agent"}, {"argo-rollout", "ro checkout"}, {"argo-bluegreen", "ro storefront"}} {
		for _, sz := range sizes {
			name := v.name + "-" + draw.Itoa(sz.w) + "x" + draw.Itoa(sz.h)
			t.Run(name, func(t *testing.T) {
				m := newRCModel(t, workloadFixture{midRollout()}, nil, sz.w, sz.h)
				m = send(m, typedOpen(v.open)...)
				checkFits(t, m.Render(), sz.w, sz.h)
				compareGolden(t, name, ansi.Strip(m.Render())+"\n")
			})
		}
	}
}

// An undo from the StatefulSet view goes to the revision under the cursor,
// only after y, through the one runner.
func TestStatefulSetViewUndoesToTheChosenRevision(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	m := newRCModel(t, workloadFixture{midRollout()}, acts, 120, 40)
	m = rcRun(m, typedOpen("sts db")...)
	if s := plain(m); !strings.Contains(s, "▸ 1    db=postgres:15.4") || !strings.Contains(s, "┃") {
		t.Fatalf("the view does not put the cursor on revision 1 or mark the partition:\n%s", s)
	}
	m = rcRun(m, press("u"))
	if s := plain(m); !strings.Contains(s, "kubectl -n shop rollout undo statefulset/db --to-revision=1") || len(acts.sent) != 0 {
		t.Fatalf("u sent %v before y, or the confirmation lacks kubectl's command:\n%s", acts.sent, s)
	}
	// The confirmation shows the rehearsal's forecast, as a Deployment's does.
	if s := plain(m); !strings.Contains(s, "forecast: 4 scaling steps, new pods ready in 2 waves") {
		t.Fatalf("the confirmation lacks the forecast:\n%s", s)
	}
	m = rcRun(m, press("y"))
	if len(acts.sent) != 1 || acts.sent[0].Action != "sts-undo" || acts.sent[0].Revision != 1 || acts.sent[0].Name != "db" {
		t.Fatalf("sent %+v, want one sts-undo of db to revision 1", acts.sent)
	}
	if s := plain(m); !strings.Contains(s, "undo to revision 1: ok") {
		t.Errorf("the footer does not say what was sent:\n%s", s)
	}
	// The template's own revision is not a target: it says so and sends
	// nothing.
	m = rcRun(m, press("j"), press("u"))
	if len(acts.sent) != 1 || !strings.Contains(plain(m), "is already at revision 2") {
		t.Errorf("u on the current revision sent %v:\n%s", acts.sent, plain(m))
	}
}

// The partition key asks for an ordinal, refuses one out of range, and
// sends the partition once confirmed.
func TestStatefulSetViewHoldsThePartition(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	m := newRCModel(t, workloadFixture{midRollout()}, acts, 120, 40)
	m = rcRun(m, typedOpen("sts db")...)
	m = rcRun(m, press("P"))
	m = rcRun(m, typed("9")...)
	m = rcRun(m, press("enter"))
	if !strings.Contains(plain(m), "write an ordinal from 0 (update every pod) to 5 (update none)") {
		t.Fatalf("partition 9 of 5 replicas was not refused:\n%s", plain(m))
	}
	m = rcRun(m, press("backspace"))
	m = rcRun(m, typed("1")...)
	m = rcRun(m, press("enter"), press("y"))
	if len(acts.sent) != 1 || acts.sent[0].Action != "sts-partition" || acts.sent[0].Partition != 1 {
		t.Fatalf("sent %+v, want the partition at 1", acts.sent)
	}
}

// The scale key refuses a count spec.replicas cannot hold in words, rather
// than wrapping it round to another count the plan would offer to send.
func TestStatefulSetViewRefusesReplicasPastTheAPIsRange(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	m := newRCModel(t, workloadFixture{midRollout()}, acts, 120, 40)
	m = rcRun(m, typedOpen("sts db")...)
	m = rcRun(m, press("s"))
	m = rcRun(m, typed("5000000000")...) // int32(5000000000) is 705032704
	m = rcRun(m, press("enter"))
	if s := plain(m); !strings.Contains(s, "5000000000 replicas is more than the API accepts") || strings.Contains(s, "705032704") {
		t.Fatalf("5000000000 replicas were not refused:\n%s", s)
	}
	m = rcRun(m, press("y"))
	if len(acts.sent) != 0 {
		t.Fatalf("sent %+v after a refused count", acts.sent)
	}
}

// fleetOfDB is the workload fixture with a fleet of its one StatefulSet.
type fleetOfDB struct{ workloadFixture }

func (fleetOfDB) Fleet(string, time.Time) []cluster.FleetRow {
	// Two rows, so that the fleet does not open its only workload.
	return []cluster.FleetRow{{Namespace: "shop", Kind: kind.StatefulSet, Name: "db", Revision: 2, State: cluster.FleetRolling},
		{Namespace: "shop", Kind: kind.DaemonSet, Name: "agent", Revision: 1, State: cluster.FleetComplete}}
}
func (fleetOfDB) Namespaces() []string { return []string{"shop"} }

// A StatefulSet's key pressed on its fleet row opens its view on that
// action's question, as a Deployment's opens its dialog over the fleet.
func TestFleetRowTakesItsKindsKeys(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	src := fleetOfDB{workloadFixture{midRollout()}}
	m := send(New(Options{Cluster: src, AllNamespaces: true, Context: "kind-dev", Theme: themes.Dark(), Clock: fixedClock, Actions: acts}),
		tea.WindowSizeMsg{Width: 120, Height: 40})
	m = rcRun(m, press("P"))
	s := plain(m)
	if !strings.Contains(s, "statefulset db") || !strings.Contains(s, "partition: the lowest ordinal to update, 0 to 5 (now 3)") {
		t.Fatalf("P on sts/db's row did not open its partition question:\n%s", s)
	}
	m = rcRun(m, typed("1")...)
	m = rcRun(m, press("enter"), press("y"))
	if len(acts.sent) != 1 || acts.sent[0].Action != "sts-partition" || acts.sent[0].Partition != 1 {
		t.Fatalf("sent %+v, want the partition at 1", acts.sent)
	}
}

// The help greys the Argo keys the Rollout's state refuses, with the
// reason, as it does keys disabled for the whole console; the others stay
// as they are.
func TestHelpSaysWhyARolloutsKeyIsOff(t *testing.T) {
	m := newRCModel(t, workloadFixture{midRollout()}, &fakeRCActions{fakeActions: oneContainer()}, 240, 60)
	m = send(m, typedOpen("ro checkout")...)
	m = send(m, press("?"))
	s := plain(m)
	// The help's columns cut the reason; its start is the state's.
	for _, want := range []string{"retry the aborted rollout (Rollout view) — rol", "resume (a pause by hand) (Rollout view) — rol"} {
		if !strings.Contains(s, want) {
			t.Errorf("the help lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "promote (past the pause or step) (Rollout view) —") {
		t.Errorf("the help greys promote, which the state allows:\n%s", s)
	}
}
