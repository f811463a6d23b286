package nodegroup

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
)

var t0 = controltest.Start

// harness runs the controller against a fake clientset, in virtual-time
// order, with the node cache following the API after every sync.
type harness struct {
	*controltest.Harness
	ctrl *Controller
	// firstSeen is when each node first appeared; readyAt when it first was
	// Ready without the not-ready taint.
	firstSeen, readyAt map[string]time.Duration
}

func newHarness(t *testing.T, groups []Group, configure func(*Controller)) *harness {
	t.Helper()
	h := &harness{
		Harness:   controltest.New(t),
		firstSeen: map[string]time.Duration{},
		readyAt:   map[string]time.Duration{},
	}
	h.ctrl = New(h.Env, groups)
	if configure != nil {
		configure(h.ctrl)
	}
	h.Watch(h.ctrl)
	return h
}

func (h *harness) runFor(d time.Duration) {
	h.T.Helper()
	h.RunUntil(h.Clock.Now().Add(d), h.observe)
}

// observe lets the node cache catch up with the API and writes down when
// each node first appeared and first became ready.
func (h *harness) observe() {
	h.T.Helper()
	now := h.Clock.Now().Sub(t0)
	for _, obj := range h.Observe(control.Nodes) {
		n := obj.(*corev1.Node)
		if _, ok := h.firstSeen[n.Name]; !ok {
			h.firstSeen[n.Name] = now
		}
		if c := readyCondition(n); c != nil && c.Status == corev1.ConditionTrue && !hasNotReadyTaint(n) {
			if _, ok := h.readyAt[n.Name]; !ok {
				h.readyAt[n.Name] = now
			}
		}
	}
}

// terminate deletes a node, as a cloud instance termination does.
func (h *harness) terminate(name string) {
	h.T.Helper()
	if err := h.Client.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		h.T.Fatal(err)
	}
	h.observe()
}

func (h *harness) node(name string) *corev1.Node {
	h.T.Helper()
	n, err := h.Client.CoreV1().Nodes().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.T.Fatalf("node %s: %v", name, err)
	}
	return n
}

func (h *harness) names() []string { return h.Names(control.Nodes) }

var updateOptions = metav1.UpdateOptions{}
