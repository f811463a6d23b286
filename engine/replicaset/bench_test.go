package replicaset

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BenchmarkSyncSteadyReplicaSet10000Pods measures the sync a large
// ReplicaSet gets after each change to one of its pods: nothing to create or
// delete, status to recount.
func BenchmarkSyncSteadyReplicaSet10000Pods(b *testing.B) {
	rs := newRS("web", 10000)
	h := newHarness(b, false, rs)
	for i := range 10000 {
		p := podOf(rs, "ReplicaSet", fmt.Sprintf("web-%05d", i), fmt.Sprintf("node-%03d", i%500), corev1.PodRunning, ago(time.Hour))
		if err := h.Indexer("pods").Add(p); err != nil {
			b.Fatal(err)
		}
		h.Handlers["pods"].OnAdd(p, false)
	}
	ctx := context.Background()
	// The first sync writes status; the cache then shows it.
	if err := h.ctrl.Sync(ctx, "default/web"); err != nil {
		b.Fatal(err)
	}
	written, err := h.Client.AppsV1().ReplicaSets("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil || written.Status.Replicas != 10000 {
		b.Fatalf("status after the first sync: %+v, %v", written.Status, err)
	}
	if err := h.Indexer("replicasets").Update(written); err != nil {
		b.Fatal(err)
	}
	h.Client.ClearActions()
	b.ReportAllocs()
	for b.Loop() {
		if err := h.ctrl.Sync(ctx, "default/web"); err != nil {
			b.Fatal(err)
		}
	}
	if n := len(h.actions()); n != 0 {
		b.Fatalf("a steady sync made %d API calls, want 0", n)
	}
}

// BenchmarkOwnedIndexObserve100000Pods measures what the owned-pod index
// costs each pod event of a 100,000-pod ReplicaSet: a status write,
// filed over the pod's entry (found by namespace and name among every
// pod filed), in an order unrelated to the names, as a rollout's pods turn
// ready.
func BenchmarkOwnedIndexObserve100000Pods(b *testing.B) {
	const n = 100000
	rs := newRS("web", n)
	x := newOwnedIndex("ReplicaSet")
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		pods[i] = podOf(rs, "ReplicaSet", fmt.Sprintf("web-6d4cf56db5-%05x", i*7919%(1<<20)), fmt.Sprintf("node-%04d", i%5000), corev1.PodRunning, ago(time.Hour))
		x.observe(pods[i])
	}
	updated := make([]*corev1.Pod, n)
	for i, p := range pods {
		updated[i] = p.DeepCopy()
		updated[i].ResourceVersion = "2"
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		x.observe(updated[i*65537%n])
		i++
	}
	if got := x.count(rs.UID); got != n {
		b.Fatalf("%d pods filed, want %d", got, n)
	}
}
