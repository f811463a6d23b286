package cluster_test

import (
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/cluster"
)

// During a node roll a DaemonSet's pods outlive the nodes the roll
// deleted until they are collected: the view counts as updated only the
// nodes the DaemonSet still desires, as the controller's status does
// (desired 5, updated 5 — not the 7 nodes its pods name).
func TestDaemonSetViewCountsOnlyTheNodesItDesires(t *testing.T) {
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: shop, Name: "agent", UID: "uid-agent", Generation: 2,
			Annotations: map[string]string{model.DaemonSetTemplateGenerationAnnotation: "2"}},
		Spec: appsv1.DaemonSetSpec{Template: podTemplate("agent", "agent:2"),
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType}},
		Status: appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 5, CurrentNumberScheduled: 5,
			UpdatedNumberScheduled: 5, NumberAvailable: 5, NumberReady: 5},
	}
	objs := []runtime.Object{ds}
	for i := 3; i <= 9; i++ {
		node := fmt.Sprintf("nodes-%d", i)
		if i >= 5 { // nodes-3 and nodes-4 were replaced and deleted
			objs = append(objs, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: node},
				Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}}})
		}
		objs = append(objs, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: shop, Name: "agent-" + node, UID: k8stypes.UID("uid-agent-" + node),
				Labels: map[string]string{"app": "agent", model.DaemonPodTemplateGenerationLabel: "2"}, OwnerReferences: controlledBy("DaemonSet", "agent", "uid-agent"),
				CreationTimestamp: metav1.NewTime(at(0))},
			Spec: corev1.PodSpec{NodeName: node},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at(0))}},
				ContainerStatuses: []corev1.ContainerStatus{{Ready: true}}},
		})
	}
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(60), Objects: objs, Watch: synced})
	v, ok := c.DaemonSet(shop, "agent", at(60))
	if !ok {
		t.Fatal("no view of ds/agent")
	}
	states := map[string]cluster.DaemonNodeState{}
	updated := int32(0)
	for _, n := range v.Nodes {
		states[n.Node] = n.State
		if n.State == cluster.DaemonUpdated {
			updated++
		}
	}
	if updated != ds.Status.UpdatedNumberScheduled || states["nodes-3"] != cluster.DaemonNodeGone || states["nodes-4"] != cluster.DaemonNodeGone {
		t.Errorf("the view lists %d nodes updated for the controller's %d (desired %d): %v", updated, ds.Status.UpdatedNumberScheduled, ds.Status.DesiredNumberScheduled, states)
	}
}
