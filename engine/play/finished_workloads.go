package play

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"rollscope/engine/control"
	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// workloadsSettled reports whether every workload of a kind but Deployment
// (whose ReplicaSets also tell, finished.go) has settled as the registry's
// accessor judges it, and — when one of them runs a pod per node — whether
// the nodes have too.
func workloadsSettled(l control.Listers) bool {
	// perNode are the API kind names of the workloads that run one pod
	// per node.
	var perNode map[string]bool
	for _, e := range kind.All() {
		if e.Kind == kind.Deployment {
			continue
		}
		for _, w := range listWorkloads(l, e.Kind) {
			if !w.Settled() && !rolloutHeld(w) {
				return false
			}
			if _, scaled := w.Replicas(); !scaled {
				if perNode == nil {
					perNode = map[string]bool{}
				}
				perNode[e.Name] = true
			}
		}
	}
	return perNode == nil || nodesSettled(l, perNode)
}

// rolloutHeld reports whether w is an Argo Rollout that holds for the
// operator with its pods settled — waiting at a pause that only a promote
// ends, or failed — which ends a run as a paused Deployment does. A timed
// pause ends by itself: the run waits for it.
func rolloutHeld(w kind.Workload) bool {
	ro, ok := w.Object().(*argo.Rollout)
	if !ok {
		return false
	}
	phase, _ := kind.RolloutPhase(ro)
	st := ro.Status
	if step, _ := argo.CurrentStep(ro); phase == argo.RolloutPhasePaused && !ro.Spec.Paused && step != nil && step.Pause != nil && step.Pause.Duration != nil {
		return false
	}
	// Blue/green's pause begins once the preview ReplicaSet is all
	// available (its status counts the active one only); with
	// auto-promotion after autoPromotionSeconds it ends by itself.
	if bg := ro.Spec.Strategy.BlueGreen; bg != nil && phase == argo.RolloutPhasePaused && !ro.Spec.Paused {
		timed := (bg.AutoPromotionEnabled == nil || *bg.AutoPromotionEnabled) && bg.AutoPromotionSeconds > 0
		return !timed && st.ObservedGeneration == strconv.FormatInt(ro.Generation, 10)
	}
	// An abort says Degraded at once, but the controller goes on to
	// scale the stable ReplicaSet back up and the canary (or, after its
	// delay, the preview) down: the run waits for that, as the operator
	// does, unless the preview is kept (abortScaleDownDelaySeconds: 0).
	if st.Abort && st.UpdatedReplicas > 0 && !(ro.Spec.Strategy.BlueGreen != nil && ro.Spec.Strategy.BlueGreen.KeepsPreviewOnAbort()) {
		return false
	}
	return (phase == argo.RolloutPhasePaused || phase == argo.RolloutPhaseDegraded) &&
		st.ObservedGeneration == strconv.FormatInt(ro.Generation, 10) && st.Replicas == st.AvailableReplicas
}

// listWorkloads are the objects of kind k the listers hold; none where the
// run does not follow the kind (a live run may leave StatefulSets' lister
// nil).
func listWorkloads(l control.Listers, k kind.Kind) []kind.Workload {
	ix := l.Workloads[k]
	if ix == nil {
		return nil
	}
	objs := ix.List()
	out := make([]kind.Workload, 0, len(objs))
	for _, o := range objs {
		if w, ok := kind.Of(o); ok {
			out = append(out, w)
		}
	}
	return out
}

// nodesSettled: no node is still coming up (it gets its pods of the
// workloads that run one per node once it is Ready), and no such pod — its
// controller of a kind in perNode — is left bound to a node that is gone
// (drains leave them be; the pod garbage collector removes them after its
// quarantine).
func nodesSettled(l control.Listers, perNode map[string]bool) bool {
	nodes, _ := l.Nodes.List(labels.Everything())
	known := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		if !model.NodeReady(n) && !model.NodeDetached(n) {
			return false
		}
		known[n.Name] = true
	}
	// Only the pods of nodes that are gone, found through the pods' node
	// index rather than a walk over every pod.
	for _, node := range l.PodIndex.ListIndexFuncValues(control.IndexByNode) {
		if node == "" || known[node] {
			continue
		}
		pods, _ := l.PodIndex.ByIndex(control.IndexByNode, node)
		for _, o := range pods {
			if p, ok := o.(*corev1.Pod); ok {
				if ref := metav1.GetControllerOfNoCopy(p); ref != nil && perNode[ref.Kind] {
					return false
				}
			}
		}
	}
	return true
}
