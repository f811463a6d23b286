package replicaset

import (
	"context"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/control/controltest"
)

func (h *harness) replicationController(name string) *corev1.ReplicationController {
	h.T.Helper()
	rc, err := h.Client.CoreV1().ReplicationControllers("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.T.Fatal(err)
	}
	h.Client.ClearActions()
	return rc
}

func TestReplicationControllerScalesLikeAReplicaSet(t *testing.T) {
	rc := newRC("frontend", 3)
	rc.Spec.MinReadySeconds = 10
	h := newHarness(t, true, rc)
	if h.ctrl.Name() != "replicationcontroller-controller" {
		t.Errorf("name %q", h.ctrl.Name())
	}
	if err := h.sync("default/frontend"); err != nil {
		t.Fatal(err)
	}
	pods := h.pods()
	if len(pods) != 3 {
		t.Fatalf("created %d pods, want 3", len(pods))
	}
	for _, p := range pods {
		ref := metav1.GetControllerOf(&p)
		if p.GenerateName != "frontend-" || ref == nil || ref.Kind != "ReplicationController" || ref.APIVersion != "v1" || ref.UID != "uid-frontend" {
			t.Errorf("pod %s: generateName %q controller %+v, want a v1 ReplicationController ref to frontend", p.Name, p.GenerateName, ref)
		}
	}

	// The kubelet makes them ready at different times.
	ctx := context.Background()
	for i, p := range pods {
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue,
			LastTransitionTime: metav1.NewTime(t0.Add(-time.Duration(5+10*i) * time.Second))}}
		if _, err := h.Client.CoreV1().Pods("default").UpdateStatus(ctx, &p, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	h.observe()
	if err := h.sync("default/frontend"); err != nil {
		t.Fatal(err)
	}
	st := h.replicationController("frontend").Status
	if st.Replicas != 3 || st.FullyLabeledReplicas != 3 || st.ReadyReplicas != 3 || st.AvailableReplicas != 2 || st.ObservedGeneration != 1 {
		t.Errorf("status %+v, want 3 replicas, 3 ready, 2 available (one ready for only 5s of 10)", st)
	}
	if !slices.Contains(h.Queue.After, controltest.Delayed{Key: "default/frontend", Delay: 10 * time.Second}) {
		t.Errorf("requeues %v, want default/frontend after minReadySeconds", h.Queue.After)
	}

	// Scale down to 1: the most recently ready pod goes first.
	rc = h.replicationController("frontend")
	one := int32(1)
	rc.Spec.Replicas = &one
	if _, err := h.Client.CoreV1().ReplicationControllers("default").Update(ctx, rc, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.Events.Lines = nil
	if err := h.sync("default/frontend"); err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, p := range h.pods() {
		left = append(left, p.Name)
	}
	if !slices.Equal(left, []string{pods[2].Name}) {
		t.Errorf("pods left %v, want the longest-ready %s", left, pods[2].Name)
	}
	if len(h.Events.Lines) != 2 {
		t.Errorf("events %q, want two SuccessfulDelete", h.Events.Lines)
	}
}

func TestReplicationControllerWithoutSelectorUsesTemplateLabels(t *testing.T) {
	rc := newRC("frontend", 1)
	rc.Spec.Selector = nil
	orphan := podOf(nil, "", "orphan", "node-a", corev1.PodRunning, ago(time.Hour))
	h := newHarness(t, true, rc, orphan)
	if err := h.sync("default/frontend"); err != nil {
		t.Fatal(err)
	}
	pods := h.pods()
	if len(pods) != 1 || metav1.GetControllerOf(&pods[0]) == nil {
		t.Fatalf("pods %v, want only the orphan, adopted through the defaulted selector", pods)
	}
}

func TestReplicationControllerWithoutTemplateReportsFailure(t *testing.T) {
	rc := newRC("frontend", 1)
	rc.Spec.Template = nil
	h := newHarness(t, true, rc)
	err := h.sync("default/frontend")
	if err == nil {
		t.Fatal("sync without a template succeeded")
	}
	c := h.replicationController("frontend").Status.Conditions
	if len(c) != 1 || c[0].Type != corev1.ReplicationControllerReplicaFailure || c[0].Reason != "FailedCreate" || c[0].Message != err.Error() {
		t.Errorf("conditions %+v, want ReplicaFailure/FailedCreate saying %q", c, err)
	}
}
