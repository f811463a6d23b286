package kubelet

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Pods that become ready at the same instant share one stored condition
// list, and a later change of one pod's conditions builds a new list for it
// without touching the other's.
func TestPodsWritingTheSameConditionsShareOneList(t *testing.T) {
	var lists conditionLists
	pod := func(name string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app"}}}}
	}
	status := func(ready bool, conds []corev1.PodCondition) *corev1.PodStatus {
		return &corev1.PodStatus{Conditions: conds, ContainerStatuses: []corev1.ContainerStatus{{Name: "app", Ready: ready}}}
	}
	at := t0.Add(5 * time.Second)
	a, b := pod("a"), pod("b")
	stA, stB := status(true, nil), status(true, nil)
	setConditions(a, stA, at, &lists)
	setConditions(b, stB, at, &lists)
	if &stA.Conditions[0] != &stB.Conditions[0] {
		t.Fatal("two pods ready at the same instant hold two copies of the same conditions")
	}
	kept := append([]corev1.PodCondition(nil), stB.Conditions...)

	// a stops being ready later; b's list must stay what it was.
	next := status(false, stA.Conditions)
	setConditions(a, next, at.Add(time.Second), &lists)
	if c := findCondition(next.Conditions, corev1.PodReady); c == nil || c.Status != corev1.ConditionFalse {
		t.Fatalf("a's Ready condition after its container stopped being ready: %+v", c)
	}
	for i := range kept {
		if stB.Conditions[i] != kept[i] {
			t.Fatalf("b's condition %s changed to %+v when a's did, was %+v", kept[i].Type, stB.Conditions[i], kept[i])
		}
	}
	if c := findCondition(stB.Conditions, corev1.PodReady); c == nil || c.Status != corev1.ConditionTrue || !c.LastTransitionTime.Time.Equal(at) {
		t.Fatalf("b's Ready condition: %+v, want True since %v", c, at)
	}

	// A pod ready at another instant has its own list.
	c := pod("c")
	stC := status(true, nil)
	setConditions(c, stC, at.Add(2*time.Second), &lists)
	if &stC.Conditions[0] == &stB.Conditions[0] {
		t.Fatal("a pod ready at another instant shares the conditions of one ready earlier")
	}
}
