package memapi_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/kube/memapi"
)

// statusWriter is engine/control.PodStatusWriter, which memapi may not import.
type statusWriter interface {
	WriteStatus(ctx context.Context, pod *corev1.Pod, status *corev1.PodStatus, opts metav1.UpdateOptions) error
}

// A status write that is not answered keeps UpdateStatus's contract: it is
// stored and published, a stale one conflicts, a missing pod is not found,
// and a write that changes nothing commits nothing.
func TestWriteStatusWithoutAnAnswer(t *testing.T) {
	c := memapi.New(memapi.Options{Seed: 1})
	var seen []watch.EventType
	cancel := c.Subscribe(func(ev watch.Event) {
		if _, ok := ev.Object.(*corev1.Pod); ok {
			seen = append(seen, ev.Type)
		}
	})
	defer cancel()
	pods := c.Client().CoreV1().Pods("default")
	w, ok := pods.(statusWriter)
	if !ok {
		t.Fatalf("the embedded pod client (%T) cannot write a status without an answer", pods)
	}
	created, err := pods.Create(ctx, pod("p", "a"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stale := created.DeepCopy()
	running := created.DeepCopy()
	running.Status.Phase = corev1.PodRunning
	if err := w.WriteStatus(ctx, running, &running.Status, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := pods.Get(ctx, "p", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != corev1.PodRunning || got.ResourceVersion == created.ResourceVersion {
		t.Fatalf("status write not stored: phase %q rv %q", got.Status.Phase, got.ResourceVersion)
	}
	if running.ResourceVersion != created.ResourceVersion {
		t.Fatalf("WriteStatus changed the caller's object: rv %q", running.ResourceVersion)
	}
	if err := w.WriteStatus(ctx, got, &got.Status, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("an unchanged status: %v", err)
	}
	stale.Status.Phase = corev1.PodFailed
	if err := w.WriteStatus(ctx, stale, &stale.Status, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Fatalf("a stale status write: %v, want a conflict", err)
	}
	missing := got.DeepCopy()
	missing.Name = "nope"
	if err := w.WriteStatus(ctx, missing, &missing.Status, metav1.UpdateOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("a missing pod: %v, want not found", err)
	}
	if len(seen) != 2 || seen[0] != watch.Added || seen[1] != watch.Modified {
		t.Fatalf("subscriber saw %v, want [ADDED MODIFIED]", seen)
	}
	// The next answered write is answered again.
	again := got.DeepCopy()
	again.Status.Phase = corev1.PodSucceeded
	updated, err := pods.UpdateStatus(ctx, again, metav1.UpdateOptions{})
	if err != nil || updated == nil || updated.Status.Phase != corev1.PodSucceeded {
		t.Fatalf("UpdateStatus after WriteStatus: %v, %v", updated, err)
	}
}
