package ui

import (
	"errors"
	"fmt"
	"time"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/internal/uitest"
)

// fakeSource is a hand-made picture of a cluster: the views a
// cluster.Cluster would produce for a rollout in the middle of its work.
type fakeSource struct {
	watch       cluster.WatchStatus
	deployments []cluster.DeploymentSummary
	rollouts    map[string]cluster.RolloutView
	nodes       []cluster.NodeRow
	timeline    []cluster.TimelineEntry
	diffs       map[int64][]cluster.DiffLine
	applied     []cluster.Batch
	// unchanged makes Apply report that a batch changed nothing.
	unchanged    bool
	rolloutReads int
	absent       cluster.Absence
}

func (f *fakeSource) Apply(b cluster.Batch) bool {
	f.applied = append(f.applied, b)
	f.watch = b.Watch
	// A batch in the fixture may carry a deployment's new state as an
	// action timeline entry, which is enough to see it reach the screen.
	for _, o := range b.Deleted {
		delete(f.rollouts, o.Namespace+"/"+o.Name)
		f.absent.DeletedAt = b.At
	}
	return !f.unchanged
}
func (f *fakeSource) Watch() cluster.WatchStatus               { return f.watch }
func (f *fakeSource) Deployments() []cluster.DeploymentSummary { return f.deployments }
func (f *fakeSource) FirstDeployment(ns string) (string, string, bool) {
	return uitest.First(f.deployments, ns)
}
func (f *fakeSource) Rollout(ns, name string, _ time.Time) (cluster.RolloutView, bool) {
	f.rolloutReads++
	r, ok := f.rollouts[ns+"/"+name]
	return r, ok
}
func (f *fakeSource) Nodes() []cluster.NodeRow                        { return f.nodes }
func (f *fakeSource) Timeline(string, string) []cluster.TimelineEntry { return f.timeline }
func (f *fakeSource) RevisionDiff(ns, name string, rev int64) ([]cluster.DiffLine, error) {
	d, ok := f.diffs[rev]
	if !ok {
		return nil, errors.New("revision " + draw.Itoa(rev) + " is not in the history any more")
	}
	return d, nil
}
func (f *fakeSource) RCUpdate(string, string) (cluster.RCUpdateView, bool) {
	return cluster.RCUpdateView{}, false
}
func (f *fakeSource) AddAction(string, string, cluster.TimelineEntry) {}
func (f *fakeSource) Absent(string, string) cluster.Absence           { return f.absent }

var t0 = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

func fixedClock() time.Time { return t0 }

func podRows(prefix, node string, created time.Time, states ...cluster.PodState) []cluster.PodRow {
	out := make([]cluster.PodRow, len(states))
	for i, s := range states {
		p := cluster.PodRow{Name: fmt.Sprintf("%s-%05d", prefix, i), Node: fmt.Sprintf("%s-%d", node, i%4),
			Phase: "Running", Status: "Running", State: s, Ready: "1/1", Created: created}
		// Status is kubectl's word for each (model.PodStatusWord).
		switch s {
		case cluster.PodPending:
			p.Phase, p.Status, p.Ready, p.Node, p.Reason = "Pending", "Pending", "0/1", "", "Unschedulable"
		case cluster.PodCreating:
			p.Phase, p.Status, p.Ready, p.Reason = "Pending", "ContainerCreating", "0/1", "ContainerCreating"
		case cluster.PodNotReady:
			p.Ready = "0/1"
		case cluster.PodCrashLoop:
			p.Ready, p.Restarts, p.Reason, p.Status = "0/1", 4, "CrashLoopBackOff", "CrashLoopBackOff"
		case cluster.PodTerminating:
			p.Status = "Terminating"
		case cluster.PodFailed:
			p.Phase, p.Ready, p.Reason, p.Status = "Failed", "0/1", "Error", "Error"
		}
		out[i] = p
	}
	return out
}

// midRollout is frontend going from revision 2 (nginx:1.27) to revision 3
// (nginx:1.28): 10 replicas, maxSurge 25% → 3, maxUnavailable 25% → 2.
func midRollout() *fakeSource {
	const R, C, N, X, T = cluster.PodReady, cluster.PodCreating, cluster.PodNotReady,
		cluster.PodCrashLoop, cluster.PodTerminating
	newRS := cluster.ReplicaSetRow{Name: "frontend-7b7d5974f6", Hash: "7b7d5974f6", Revision: 3, Role: cluster.RoleNew,
		Images: []string{"nginx:1.28"}, Desired: 5, Current: 5, Ready: 2, Available: 2, Created: t0.Add(-40 * time.Second),
		Pods: podRows("frontend-7b7d5974f6", "node", t0.Add(-40*time.Second), R, R, C, N, X)}
	oldRS := cluster.ReplicaSetRow{Name: "frontend-5d9c8f7b6c", Hash: "5d9c8f7b6c", Revision: 2, Role: cluster.RoleOld,
		Images: []string{"nginx:1.27"}, Desired: 8, Current: 9, Ready: 8, Available: 8, Created: t0.Add(-26 * time.Hour),
		Pods: podRows("frontend-5d9c8f7b6c", "node", t0.Add(-26*time.Hour), R, R, R, R, R, R, R, R, T)}
	oldest := cluster.ReplicaSetRow{Name: "frontend-6f8b9c7d5e", Hash: "6f8b9c7d5e", Revision: 1, Role: cluster.RoleOld,
		Images: []string{"nginx:1.26"}, Created: t0.Add(-72 * time.Hour)}
	view := cluster.RolloutView{
		Namespace: "shop", Name: "frontend", Generation: 4, Observed: true, Strategy: "RollingUpdate",
		Replicas: 10, MaxSurge: 3, MaxUnavailable: 2, MaxSurgeSpec: "25%", MaxUnavailableSpec: "25%",
		MinReadySeconds: 5, ProgressDeadlineSeconds: 600, Revision: 3,
		Progressing: cluster.Condition{Status: "True", Reason: "ReplicaSetUpdated",
			Message: `ReplicaSet "frontend-7b7d5974f6" is progressing.`},
		Available: cluster.Condition{Status: "True", Reason: "MinimumReplicasAvailable"},
		Status:    `Waiting for deployment "frontend" rollout to finish: 5 out of 10 new replicas have been updated...`,
		Surge:     model.Headroom{Used: 13, Limit: 13}, Unavailable: model.Headroom{Used: 0, Limit: 2},
		ReplicaSets: []cluster.ReplicaSetRow{newRS, oldRS, oldest},
		History: []cluster.RevisionRow{
			{Revision: 1, ChangeCause: "kubectl create deployment frontend --image=nginx:1.26", Images: []string{"nginx:1.26"}, Created: t0.Add(-72 * time.Hour)},
			{Revision: 2, ChangeCause: "kubectl set image deployment/frontend nginx=nginx:1.27", Images: []string{"nginx:1.27"}, Created: t0.Add(-26 * time.Hour), Replicas: 8},
			{Revision: 3, ChangeCause: "kubectl set image deployment/frontend nginx=nginx:1.28", Images: []string{"nginx:1.28"}, Created: t0.Add(-40 * time.Second), Replicas: 5, Current: true},
		},
	}
	checkout := cluster.RolloutView{Namespace: "shop", Name: "checkout", Strategy: "Recreate", Replicas: 2, Revision: 1,
		Observed: true, Done: true, Status: `deployment "checkout" successfully rolled out`,
		Progressing: cluster.Condition{Status: "True", Reason: "NewReplicaSetAvailable"},
		Available:   cluster.Condition{Status: "True", Reason: "MinimumReplicasAvailable"},
		ReplicaSets: []cluster.ReplicaSetRow{{Name: "checkout-66f9b8d7c4", Hash: "66f9b8d7c4", Revision: 1, Role: cluster.RoleStable,
			Images: []string{"shop/checkout:2.1"}, Desired: 2, Current: 2, Ready: 2, Available: 2, Created: t0.Add(-3 * time.Hour),
			Pods: podRows("checkout-66f9b8d7c4", "node", t0.Add(-3*time.Hour), R, R)}},
	}
	return &fakeSource{
		watch: cluster.WatchStatus{Synced: true, Connected: true, Since: t0.Add(-time.Hour)},
		deployments: []cluster.DeploymentSummary{
			{Namespace: "shop", Name: "checkout", Replicas: 2, Updated: 2, Available: 2, Done: true},
			{Namespace: "shop", Name: "frontend", Replicas: 10, Updated: 5, Available: 10},
			{Namespace: "shop", Name: "search", Replicas: 3, Updated: 3, Available: 3, Paused: true},
		},
		rollouts: map[string]cluster.RolloutView{"shop/frontend": view, "shop/checkout": checkout},
		nodes: []cluster.NodeRow{
			{Name: "node-0", Group: "pool-a", Ready: true, Schedulable: true, Pods: 5, UpToDate: true},
			{Name: "node-1", Group: "pool-a", Ready: true, Schedulable: false, Pods: 4, UpToDate: false, Drain: "evicting 2/4",
				Taints: []string{"node.kubernetes.io/unschedulable:NoSchedule"}},
			{Name: "node-2", Group: "pool-b", Ready: true, Schedulable: true, Pods: 3, UpToDate: true},
			{Name: "node-3", Group: "pool-b", Ready: false, Schedulable: true, Pods: 0, UpToDate: true,
				Taints: []string{"node.kubernetes.io/not-ready:NoSchedule"}},
		},
		timeline: []cluster.TimelineEntry{
			{Time: t0.Add(-45 * time.Second), Kind: cluster.TimelineAction, Object: "deployment/frontend", Message: "set image nginx=nginx:1.28"},
			{Time: t0.Add(-40 * time.Second), Kind: cluster.TimelineScale, Object: "replicaset/frontend-7b7d5974f6", Message: "scaled up 0 → 3"},
			{Time: t0.Add(-40 * time.Second), Kind: cluster.TimelineScale, Object: "replicaset/frontend-5d9c8f7b6c", Message: "scaled down 10 → 8"},
			{Time: t0.Add(-38 * time.Second), Kind: cluster.TimelineCondition, Object: "deployment/frontend", Message: "Progressing True ReplicaSetUpdated"},
			{Time: t0.Add(-20 * time.Second), Kind: cluster.TimelineEvent, Object: "pod/frontend-7b7d5974f6-00004", Message: "Back-off restarting failed container", Warning: true},
			{Time: t0.Add(-10 * time.Second), Kind: cluster.TimelineScale, Object: "replicaset/frontend-7b7d5974f6", Message: "scaled up 3 → 5"},
		},
		diffs: map[int64][]cluster.DiffLine{
			2: {{Op: ' ', Text: "containers:"}, {Op: ' ', Text: "- name: nginx"},
				{Op: '-', Text: "  image: nginx:1.28"}, {Op: '+', Text: "  image: nginx:1.27"}},
			3: {},
		},
	}
}
