package cluster

import appsv1 "k8s.io/api/apps/v1"

// RolloutFlags are what a Deployment's rollout is, in the words the console
// shows at once however busy the watch is (ui/pace.go): finished, failed
// (its progress deadline exceeded), paused.
type RolloutFlags struct {
	Done, Failed, Paused bool
}

// Rollouts are the flags of each Deployment the batch carries, read from
// the objects themselves: the cost is the batch's, not the cluster's.
// Deleted Deployments are left out.
func (b Batch) Rollouts() map[ObjectRef]RolloutFlags {
	var out map[ObjectRef]RolloutFlags
	for _, o := range b.Objects {
		d, ok := o.(*appsv1.Deployment)
		if !ok || d == nil {
			continue
		}
		if out == nil {
			out = map[ObjectRef]RolloutFlags{}
		}
		_, done := rolloutStatus(d)
		out[ObjectRef{Kind: "Deployment", Namespace: d.Namespace, Name: d.Name}] = RolloutFlags{Done: done, Failed: failed(d), Paused: d.Spec.Paused}
	}
	return out
}
