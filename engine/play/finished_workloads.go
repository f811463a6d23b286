package play

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	appslisters "k8s.io/client-go/listers/apps/v1"

	"rollscope/engine/control"
	"rollscope/model"
	"rollscope/model/kind"
)

// workloadsSettled reports whether every StatefulSet and DaemonSet has
// finished its rollout as `kubectl rollout status` counts it, with every
// pod available: a partitioned StatefulSet is done once the ordinals from
// the partition up run the update revision.
func workloadsSettled(l control.Listers) bool {
	everything := labels.Everything()
	if ix := l.Workloads[kind.StatefulSet]; ix != nil {
		sets, _ := appslisters.NewStatefulSetLister(ix).List(everything)
		for _, s := range sets {
			if !statefulSetSettled(s) {
				return false
			}
		}
	}
	dss, _ := appslisters.NewDaemonSetLister(l.Workloads[kind.DaemonSet]).List(everything)
	if len(dss) > 0 && !daemonNodesSettled(l) {
		return false
	}
	for _, ds := range dss {
		if !daemonSetSettled(ds) {
			return false
		}
	}
	return true
}

func statefulSetSettled(s *appsv1.StatefulSet) bool {
	want := model.StatefulSetReplicas(s)
	st := s.Status
	if st.ObservedGeneration < s.Generation || st.Replicas != want || st.ReadyReplicas != want || st.AvailableReplicas != want {
		return false
	}
	if s.Spec.UpdateStrategy.Type != appsv1.RollingUpdateStatefulSetStrategyType {
		return true
	}
	return st.UpdatedReplicas >= want-min(model.StatefulSetPartition(s), want)
}

func daemonSetSettled(ds *appsv1.DaemonSet) bool {
	st := ds.Status
	if st.ObservedGeneration < ds.Generation || st.NumberMisscheduled > 0 ||
		st.CurrentNumberScheduled != st.DesiredNumberScheduled || st.NumberAvailable != st.DesiredNumberScheduled {
		return false
	}
	return ds.Spec.UpdateStrategy.Type != appsv1.RollingUpdateDaemonSetStrategyType || st.UpdatedNumberScheduled == st.DesiredNumberScheduled
}

// daemonNodesSettled: no node is still coming up (it gets its daemon pods
// once it is Ready), and no daemon pod is left bound to a node that is gone
// (drains leave daemon pods be; the pod garbage collector removes them after
// its quarantine).
func daemonNodesSettled(l control.Listers) bool {
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
				if ref := metav1.GetControllerOfNoCopy(p); ref != nil && ref.Kind == "DaemonSet" {
					return false
				}
			}
		}
	}
	return true
}
