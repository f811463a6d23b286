package canary

import (
	"context"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
	"rollscope/model"
)

// A canary an earlier rollscope left carries its annotations without the
// label consoles now find canaries by: a console labels it, and only it —
// a canary already labelled and a Deployment without a canary are left
// as they are.
func TestConsolesLabelTheCanariesAnEarlierRollscopeLeft(t *testing.T) {
	earlier := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "api", Namespace: "shop"}}
	(model.Canary{}).Write(&earlier.ObjectMeta)
	delete(earlier.Labels, model.CanaryLabel)
	labelled := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}}
	(model.Canary{}).Write(&labelled.ObjectMeta)
	plain := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "data", Labels: map[string]string{"app": "db"}}}
	client := fake.NewClientset(earlier, labelled, plain)

	n, err := LabelEarlierCanaries(context.Background(), client, "")
	if err != nil || n != 1 {
		t.Fatalf("labelled %d (%v), want the one canary without its label", n, err)
	}
	got, _ := client.AppsV1().Deployments("shop").Get(context.Background(), "api", metav1.GetOptions{})
	if got.Labels[model.CanaryLabel] == "" || !model.HasCanaryAnnotations(got) {
		t.Errorf("the earlier canary now carries labels %v, annotations %v", got.Labels, got.Annotations)
	}
	if got, _ := client.AppsV1().Deployments("data").Get(context.Background(), "db", metav1.GetOptions{}); len(got.Labels) != 1 {
		t.Errorf("a Deployment without a canary was labelled: %v", got.Labels)
	}
	patches := 0
	for _, a := range client.Actions() {
		if a.GetVerb() == "patch" {
			patches++
		}
	}
	if patches != 1 {
		t.Errorf("%d patches, want only the unlabelled canary's", patches)
	}
}

// A console watches only the Deployments labelled as canaries', and the API
// server says one was deleted when its label is taken off: the controller
// asks the API, finds the canary still running without its label, and puts
// the label back, so that its watch, and every console's, sees it again. A
// canary Deployment really deleted, or one whose canary has ended, is only
// read.
func TestACanaryThatLeftTheLabelledWatchIsLabelledAgain(t *testing.T) {
	now := controltest.Start
	d := heldWeb(t, now, model.CanaryLease{Holder: "me", Renewed: now})
	h := controltest.New(t, d)
	c := New(h.Env, "me", nil)
	h.Watch(c)

	// The label taken off by hand: the API holds the Deployment without it,
	// the watch drops it and says it was deleted, with what it last held.
	unlabelled := d.DeepCopy()
	delete(unlabelled.Labels, model.CanaryLabel)
	if err := h.Client.Tracker().Update(appsv1.SchemeGroupVersion.WithResource("deployments"), unlabelled, d.Namespace); err != nil {
		t.Fatal(err)
	}
	if err := h.Indexer(control.Deployments).Delete(d); err != nil {
		t.Fatal(err)
	}
	h.Handlers[control.Deployments].OnDelete(d)
	if err := c.Sync(t.Context(), "default/web"); err != nil {
		t.Fatal(err)
	}
	got, err := h.Client.AppsV1().Deployments("default").Get(t.Context(), "web", metav1.GetOptions{})
	if err != nil || got.Labels[model.CanaryLabel] != "true" || !model.HasCanaryAnnotations(got) {
		t.Fatalf("after the label was taken off mid-canary: labels %v, canary %v (%v)", got.Labels, model.HasCanaryAnnotations(got), err)
	}
	if !slices.ContainsFunc(h.Events.Lines, func(l string) bool { return strings.Contains(l, "CanaryLabelRestored") }) {
		t.Errorf("no event says why the label came back: %v", h.Events.Lines)
	}

	// Deleted for good, and a canary that ended (its label and annotations
	// dropped together): nothing is written.
	writes := func() int {
		n := 0
		for _, a := range h.Client.Actions() {
			if v := a.GetVerb(); v != "get" && v != "list" && v != "watch" {
				n++
			}
		}
		return n
	}
	before := writes()
	ended := got.DeepCopy()
	model.DropCanary(&ended.ObjectMeta)
	if err := h.Client.Tracker().Update(appsv1.SchemeGroupVersion.WithResource("deployments"), ended, d.Namespace); err != nil {
		t.Fatal(err)
	}
	h.Handlers[control.Deployments].OnDelete(got)
	if err := c.Sync(t.Context(), "default/web"); err != nil {
		t.Fatal(err)
	}
	h.Delete(ended)
	h.Handlers[control.Deployments].OnDelete(got)
	if err := c.Sync(t.Context(), "default/web"); err != nil {
		t.Fatal(err)
	}
	if n := writes() - before; n != 0 {
		t.Errorf("%d writes for a canary that ended and a Deployment deleted, want none", n)
	}
}
