package cluster

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// The indexes must hold nothing for objects that are gone, or a long-running
// console grows without bound as pods come and go.
func TestIndexesEmptyAfterDeletes(t *testing.T) {
	yes := true
	owner := func(kind, uid string) []metav1.OwnerReference {
		return []metav1.OwnerReference{{Kind: kind, Name: "x", UID: types.UID("uid-" + uid), Controller: &yes}}
	}
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-1", UID: "uid-rs", OwnerReferences: owner("Deployment", "d")}}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-1-a", OwnerReferences: owner("ReplicaSet", "rs")},
		Spec:       corev1.PodSpec{NodeName: "n1"},
	}
	moved := pod.DeepCopy()
	moved.Spec.NodeName = "n2"
	moved.OwnerReferences = owner("ReplicaSet", "other")
	ev := &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Namespace: "ns", Name: "e"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "web-1-a"},
	}
	c := NewCluster()
	c.Apply(Batch{Objects: []runtime.Object{rs, pod, ev}})
	c.Apply(Batch{Objects: []runtime.Object{moved}})
	if len(c.podsByNode) != 1 || len(c.podsByOwner) != 1 || c.podsByNode["n2"] == nil || c.podsByOwner["uid-other"] == nil {
		t.Fatalf("after the pod moved: by node %v, by owner %v; want it filed under n2 and uid-other only", c.podsByNode, c.podsByOwner)
	}
	c.Apply(Batch{Deleted: []ObjectRef{
		{Kind: "ReplicaSet", Namespace: "ns", Name: "web-1"},
		{Kind: "Pod", Namespace: "ns", Name: "web-1-a"},
		{Kind: "Event", Namespace: "ns", Name: "e"},
	}})
	if n := len(c.replicaSetsByOwner) + len(c.podsByOwner) + len(c.podsByNode) + len(c.eventsByObject); n != 0 {
		t.Errorf("indexes hold %d keys after every object was deleted: %v %v %v %v",
			n, c.replicaSetsByOwner, c.podsByOwner, c.podsByNode, c.eventsByObject)
	}
	if n := len(c.replicaSets) + len(c.pods) + len(c.events); n != 0 {
		t.Errorf("%d objects left after every object was deleted", n)
	}
}
