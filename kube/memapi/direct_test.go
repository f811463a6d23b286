package memapi_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/kube/memapi"
)

// The hot writes skip the fake clientset's bookkeeping; they must keep the
// API's contract all the same.
func TestDirectWritesKeepTheAPIContract(t *testing.T) {
	c := memapi.New(memapi.Options{Seed: 1})
	var seen []watch.EventType
	cancel := c.Subscribe(func(ev watch.Event) {
		if _, ok := ev.Object.(*corev1.Pod); ok {
			seen = append(seen, ev.Type)
		}
	})
	defer cancel()
	pods := c.Client().CoreV1().Pods("default")
	in := pod("p", "a")
	created, err := pods.Create(ctx, in, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in.ResourceVersion != "" || in.UID != "" {
		t.Fatalf("Create changed the caller's object: rv %q uid %q", in.ResourceVersion, in.UID)
	}
	stale := created.DeepCopy()
	created.Status.Phase = corev1.PodRunning
	updated, err := pods.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Status.Phase != corev1.PodRunning || updated.ResourceVersion == created.ResourceVersion {
		t.Fatalf("status write not applied: phase %q rv %q", updated.Status.Phase, updated.ResourceVersion)
	}
	stale.Status.Phase = corev1.PodFailed
	if _, err := pods.UpdateStatus(ctx, stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Fatalf("a stale status write: %v, want a conflict", err)
	}
	if err := pods.Delete(ctx, "p", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 || seen[0] != watch.Added || seen[1] != watch.Modified || seen[2] != watch.Deleted {
		t.Fatalf("subscriber saw %v, want [ADDED MODIFIED DELETED]", seen)
	}
}
