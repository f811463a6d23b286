package uitest

import (
	"fmt"
	"time"

	"rollscope/model"
	"rollscope/model/cluster"
)

// Pods are n pods of a ReplicaSet named prefix, in the states given, on
// node-0 … node-3 in turn.
func Pods(prefix string, states ...cluster.PodState) []cluster.PodRow {
	out := make([]cluster.PodRow, len(states))
	for i, st := range states {
		out[i] = cluster.PodRow{Name: fmt.Sprintf("%s-%05d", prefix, i), Node: fmt.Sprintf("node-%d", i%4),
			Phase: "Running", Status: "Running", State: st, Ready: "1/1", Created: T0.Add(-time.Minute)}
		if st != cluster.PodReady {
			out[i].Ready = "0/1"
		}
	}
	return out
}

// MidRollout is shop/frontend halfway from revision 2 (nginx:1.27) to
// revision 3 (nginx:1.28): 4 replicas, two of them new, one new pod not
// ready yet; two nodes, and a short timeline.
func MidRollout() *Source {
	const R, N = cluster.PodReady, cluster.PodNotReady
	newRS := cluster.ReplicaSetRow{Name: "frontend-new", Revision: 3, Role: cluster.RoleNew, Images: []string{"nginx:1.28"},
		Desired: 2, Current: 2, Ready: 1, Available: 1, Created: T0.Add(-time.Minute), Pods: Pods("frontend-new", R, N)}
	oldRS := cluster.ReplicaSetRow{Name: "frontend-old", Revision: 2, Role: cluster.RoleOld, Images: []string{"nginx:1.27"},
		Desired: 3, Current: 3, Ready: 3, Available: 3, Created: T0.Add(-time.Hour), Pods: Pods("frontend-old", R, R, R)}
	view := cluster.RolloutView{Namespace: "shop", Name: "frontend", Generation: 4, Observed: true, Strategy: "RollingUpdate",
		Replicas: 4, MaxSurge: 1, MaxUnavailable: 1, MaxSurgeSpec: "25%", MaxUnavailableSpec: "25%", Revision: 3,
		Progressing: cluster.Condition{Status: "True", Reason: "ReplicaSetUpdated"},
		Available:   cluster.Condition{Status: "True", Reason: "MinimumReplicasAvailable"},
		Status:      `Waiting for deployment "frontend" rollout to finish: 2 out of 4 new replicas have been updated...`,
		Blocker:     "frontend-new-00001 is not ready (readiness probe failing)",
		Surge:       model.Headroom{Used: 1, Limit: 1}, Unavailable: model.Headroom{Used: 0, Limit: 1},
		ReplicaSets: []cluster.ReplicaSetRow{newRS, oldRS},
		History: []cluster.RevisionRow{
			{Revision: 2, ChangeCause: "set image nginx=nginx:1.27", Images: []string{"nginx:1.27"}, Created: T0.Add(-time.Hour), Replicas: 3},
			{Revision: 3, ChangeCause: "set image nginx=nginx:1.28", Images: []string{"nginx:1.28"}, Created: T0.Add(-time.Minute), Replicas: 2, Current: true},
		},
	}
	return &Source{
		Status:    cluster.WatchStatus{Synced: true, Connected: true},
		Summaries: []cluster.DeploymentSummary{{Namespace: "shop", Name: "frontend", Replicas: 4, Updated: 2, Available: 4}},
		Rollouts:  map[string]cluster.RolloutView{"shop/frontend": view},
		NodeRows: []cluster.NodeRow{
			{Name: "node-0", Group: "pool-a", Ready: true, Schedulable: true, Pods: 3, UpToDate: true},
			{Name: "node-1", Group: "pool-a", Ready: true, Schedulable: false, Pods: 2, Drain: "evicting 1/2"},
		},
		Entries: []cluster.TimelineEntry{
			{Time: T0.Add(-50 * time.Second), Kind: cluster.TimelineAction, Object: "deployment/frontend", Message: "set image nginx=nginx:1.28"},
			{Time: T0.Add(-40 * time.Second), Kind: cluster.TimelineScale, Object: "replicaset/frontend-new", Message: "scaled up 0 → 2"},
			{Time: T0.Add(-20 * time.Second), Kind: cluster.TimelineEvent, Object: "pod/frontend-new-00001", Message: "Readiness probe failed", Warning: true},
		},
		Diffs: map[int64][]cluster.DiffLine{2: {{Op: '-', Text: "image: nginx:1.28"}, {Op: '+', Text: "image: nginx:1.27"}}},
	}
}
