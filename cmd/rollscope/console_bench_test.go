package main

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/kube/watch"
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui"
)

// watchUntilSynced runs the bridge into a cluster.Cluster until the first
// synced batch has been applied, and returns the console model.
func watchUntilSynced(b *testing.B, ctx context.Context, client kubernetes.Interface, ns string, clk interface{ Now() time.Time }) (*cluster.Cluster, tea.Model) {
	c := cluster.NewCluster()
	batches := make(chan cluster.Batch, 64)
	br := watch.New(client, watch.Scope{Namespace: ns}, nil, func(bt cluster.Batch) { batches <- bt }, watch.Options{})
	go func() { _ = br.Run(ctx) }()
	var m tea.Model = ui.New(ui.Options{Cluster: c, Namespace: ns, Context: "bench", Theme: themes.NoColor(), Clock: clk.Now})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for bt := range batches {
		m, _ = m.Update(bt)
		if bt.Watch.Synced {
			return c, m
		}
	}
	b.Fatal("the bridge stopped before it synced")
	return nil, nil
}

// BenchmarkWatchedMemory10kPods1kNodes measures what the console itself
// holds — informer caches (trimmed), the bridge and cluster.Cluster — with
// 10,000 pods and 1,000 nodes watched: the heap after a GC, less the heap
// the embedded API server holds for the same objects.
func BenchmarkWatchedMemory10kPods1kNodes(b *testing.B) {
	for i := 0; i < b.N; i++ {
		api := memapi.New(memapi.Options{Seed: 1})
		c := api.Client()
		ctx := context.Background()
		replicas := int32(10000)
		yes := true
		d, err := c.AppsV1().Deployments("default").Create(ctx, benchDeployment(replicas), metav1.CreateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "app-abc", Namespace: "default", Labels: map[string]string{"app": "app"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: &yes}}},
			Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: d.Spec.Selector, Template: d.Spec.Template}}
		if rs, err = c.AppsV1().ReplicaSets("default").Create(ctx, rs, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		for n := 0; n < 1000; n++ {
			if _, err := c.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%d", n)}}, metav1.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		for p := 0; p < int(replicas); p++ {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("app-abc-%05d", p), Namespace: "default", Labels: map[string]string{"app": "app"},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &yes}}},
				Spec: corev1.PodSpec{NodeName: fmt.Sprintf("node-%d", p%1000), Containers: d.Spec.Template.Spec.Containers}}
			if _, err := c.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		before := heapInUse()
		runCtx, cancel := context.WithCancel(ctx)
		cluster, m := watchUntilSynced(b, runCtx, c, "default", realClock{})
		after := heapInUse()
		b.ReportMetric(float64(after-before)/(1<<20), "console-MB")
		runtime.KeepAlive(cluster)
		runtime.KeepAlive(m)
		cancel()
	}
}

// BenchmarkFirstFrame measures the embedded default from nothing to the
// first frame that shows the rollout: start the frontend scenario's cluster,
// watch it, apply the first synced batch and render.
func BenchmarkFirstFrame(b *testing.B) {
	sc, err := scenario.Load("frontend")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		start := time.Now()
		ctx, cancel := context.WithCancel(context.Background())
		clock := sim.NewClock(epoch)
		api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
		cl, err := embedded.Start(ctx, api, clock, sc, embedded.Options{})
		if err != nil {
			b.Fatal(err)
		}
		clock.SetSpeed(10)
		go cl.Runner.RunRealtime(ctx)
		_, m := watchUntilSynced(b, ctx, api.Client(), sc.Namespace, clock)
		if frame := m.(ui.Model).Render(); len(frame) == 0 {
			b.Fatal("empty first frame")
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000, "ms-to-first-frame")
		cancel()
	}
}

func benchDeployment(replicas int32) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "app"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "app"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "example.com/app:v1"}}}}}}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
