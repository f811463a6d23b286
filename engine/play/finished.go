package play

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"

	"rollscope/engine/control"
	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/argo/analysis"
)

// Finished reports whether every rollout the listers hold has finished or
// failed and nothing is in flight (an AnalysisRun that will reach a
// verdict by itself is): the point where a run stops even though
// crash-looping pods would go on restarting for ever. groups are the node
// groups the run keeps: a drain or roll on one of their nodes is in flight
// until it is done, and a group below its size is still replacing nodes.
// Nodes of other groups are not the run's business.
func Finished(l control.Listers, groups []nodegroup.Group) bool {
	everything := labels.Everything()
	ds, _ := l.Deployments.List(everything)
	for _, d := range ds {
		if !deploymentSettled(d, owned(l, d)) {
			return false
		}
	}
	if !workloadsSettled(l) || analysisPending(l) {
		return false
	}
	pods, _ := l.Pods.List(everything)
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			return false
		}
	}
	sizes := make(map[string]int, len(groups))
	for _, g := range groups {
		sizes[g.Name] = 0
	}
	nodes, _ := l.Nodes.List(everything)
	for _, n := range nodes {
		group := nodegroup.GroupOf(n)
		if _, ours := sizes[group]; !ours {
			continue
		}
		if noderoll.Busy(n) {
			return false
		}
		sizes[group]++
	}
	for _, g := range groups {
		if sizes[g.Name] < g.Size {
			return false
		}
	}
	return true
}

// analysisPending says whether an AnalysisRun is still measuring towards
// its verdict: a Rollout held at a pause goes on being analysed in the
// background, and Argo aborts it if the run fails.
func analysisPending(l control.Listers) bool {
	if l.AnalysisRuns == nil {
		return false
	}
	for _, o := range l.AnalysisRuns.List() {
		if run, ok := o.(*argo.AnalysisRun); ok && analysis.Concludes(run) {
			return true
		}
	}
	return false
}

// owned lists the ReplicaSets d controls, from the listers' cache.
func owned(l control.Listers, d *appsv1.Deployment) []*appsv1.ReplicaSet {
	objs, _ := l.ReplicaSetIndex.ByIndex(control.IndexByController, string(d.UID))
	out := make([]*appsv1.ReplicaSet, 0, len(objs))
	for _, o := range objs {
		if rs, ok := o.(*appsv1.ReplicaSet); ok {
			out = append(out, rs)
		}
	}
	return out
}

// deploymentSettled: the controller has seen the latest spec and the rollout
// is complete, has failed its progress deadline, or is paused with its pods
// settled (pausing holds the ReplicaSets' sizes, but pods already starting
// still become ready).
func deploymentSettled(d *appsv1.Deployment, owned []*appsv1.ReplicaSet) bool {
	if d.Status.ObservedGeneration < d.Generation {
		return false
	}
	if settled, ok := canaryHeld(d, owned); ok {
		return settled
	}
	if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c != nil && c.Reason == "ProgressDeadlineExceeded" {
		return true
	}
	if d.Spec.Paused {
		for _, rs := range owned {
			spec := model.SpecReplicas(rs)
			if rs.Status.Replicas != spec || rs.Status.AvailableReplicas != spec {
				return false
			}
		}
		return true
	}
	return model.DeploymentComplete(d, &d.Status)
}
