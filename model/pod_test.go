package model

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func readyPod(since time.Time) *corev1.Pod {
	return &corev1.Pod{Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{
		Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(since),
	}}}}
}

func TestIsPodAvailableHonoursMinReadySeconds(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 10, 0, time.UTC)
	cases := []struct {
		name     string
		pod      *corev1.Pod
		minReady int32
		want     bool
	}{
		{"ready, no minReadySeconds", readyPod(now), 0, true},
		{"ready exactly minReadySeconds ago is not yet available", readyPod(now.Add(-5 * time.Second)), 5, false},
		{"ready longer than minReadySeconds", readyPod(now.Add(-6 * time.Second)), 5, true},
		{"not ready", &corev1.Pod{}, 0, false},
	}
	for _, c := range cases {
		if got := IsPodAvailable(c.pod, c.minReady, now); got != c.want {
			t.Errorf("%s: IsPodAvailable = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestIsPodActive(t *testing.T) {
	deleting := metav1.Now()
	for _, c := range []struct {
		pod  corev1.Pod
		want bool
	}{
		{corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning}}, true},
		{corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodFailed}}, false},
		{corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodSucceeded}}, false},
		{corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &deleting}}, false},
	} {
		if got := IsPodActive(&c.pod); got != c.want {
			t.Errorf("IsPodActive(phase %q, deleting %v) = %v, want %v", c.pod.Status.Phase, c.pod.DeletionTimestamp != nil, got, c.want)
		}
	}
}

func TestLabelsOrOwnersChanged(t *testing.T) {
	yes := true
	base := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Labels:          map[string]string{"app": "web"},
		OwnerReferences: []metav1.OwnerReference{{UID: "u1", Name: "rs", Kind: "ReplicaSet", APIVersion: "apps/v1", Controller: &yes}},
	}}
	statusOnly := base.DeepCopy()
	statusOnly.Status.Phase = corev1.PodRunning
	relabelled := base.DeepCopy()
	relabelled.Labels["app"] = "api"
	released := base.DeepCopy()
	released.OwnerReferences = nil
	notController := base.DeepCopy()
	notController.OwnerReferences[0].Controller = nil
	// Writes that share the stored pod's label map or owner references.
	shared := *base
	shared.Status.Phase = corev1.PodRunning
	sharedLabelsReleased := *base
	sharedLabelsReleased.OwnerReferences = nil
	sharedOwnersRelabelled := *base
	sharedOwnersRelabelled.Labels = map[string]string{"app": "api"}
	for name, c := range map[string]struct {
		cur  *corev1.Pod
		want bool
	}{
		"status write": {statusOnly, false}, "relabelled": {relabelled, true},
		"released": {released, true}, "no longer the controller": {notController, true},
		"status write sharing the metadata": {&shared, false},
		"released, labels shared":           {&sharedLabelsReleased, true},
		"relabelled, owners shared":         {&sharedOwnersRelabelled, true},
	} {
		if got := LabelsOrOwnersChanged(base, c.cur); got != c.want {
			t.Errorf("%s: LabelsOrOwnersChanged = %v, want %v", name, got, c.want)
		}
	}
}
