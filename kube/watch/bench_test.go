package watch

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/clock"

	"rollscope/kube/memapi"
	"rollscope/model"
)

func benchPod(i int) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-" + strconv.Itoa(i), Namespace: "default", ResourceVersion: "1"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.25"}}},
	}
}

// BenchmarkBridgeUnder100kEventsASecond feeds pod updates to the bridge's
// handlers at 100,000 a second while the bridge runs on the embedded API,
// and reports what reaches the screen (batches/s) and what each event costs
// the informer's goroutine (ns/event).
func BenchmarkBridgeUnder100kEventsASecond(b *testing.B) {
	const pods, perMillisecond = 1000, 100
	client := memapi.New(memapi.Options{}).Client()
	for i := range pods {
		p := benchPod(i)
		p.ResourceVersion = ""
		if _, err := client.CoreV1().Pods("default").Create(context.Background(), p, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	var batches, objects atomic.Int64
	br := New(client, Scope{}, clock.RealClock{}, func(batch model.Batch) {
		batches.Add(1)
		objects.Add(int64(len(batch.Objects)))
	}, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- br.Run(ctx) }()
	defer func() { cancel(); <-done }()
	for batches.Load() == 0 {
		time.Sleep(time.Millisecond)
	}

	// Two versions of every pod, so that each event is a real change.
	src := br.byKind["Pod"]
	handler := src.handler(br.dirty)
	olds, news := make([]*corev1.Pod, pods), make([]*corev1.Pod, pods)
	for i := range pods {
		olds[i], news[i] = benchPod(i), benchPod(i)
		news[i].ResourceVersion = "2"
	}

	b.ReportAllocs()
	batches.Store(0)
	objects.Store(0)
	var busy time.Duration
	start := time.Now()
	b.ResetTimer()
	for sent := 0; sent < b.N; {
		tick := time.Now()
		for j := 0; j < perMillisecond && sent < b.N; j++ {
			handler.OnUpdate(olds[sent%pods], news[sent%pods])
			sent++
		}
		busy += time.Since(tick)
		if wait := time.Millisecond - time.Since(tick); wait > 0 {
			time.Sleep(wait)
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(busy.Nanoseconds())/float64(b.N), "ns/event")
	b.ReportMetric(float64(batches.Load())/elapsed.Seconds(), "batches/s")
	if n := batches.Load(); n > 0 {
		b.ReportMetric(float64(objects.Load())/float64(n), "objects/batch")
	}
}

// BenchmarkMarkAndPump1000Changed measures one pump after 1,000 distinct
// objects changed: marking them, then reading them from the cache into a
// batch.
func BenchmarkMarkAndPump1000Changed(b *testing.B) {
	const changed = 1000
	br := New(fake.NewClientset(), Scope{}, clock.RealClock{}, func(model.Batch) {}, Options{})
	src := br.byKind["Pod"]
	handler := src.handler(br.dirty)
	olds, news := make([]*corev1.Pod, changed), make([]*corev1.Pod, changed)
	for i := range changed {
		olds[i], news[i] = benchPod(i), benchPod(i)
		news[i].ResourceVersion = "2"
		if err := src.informer.GetStore().Add(news[i]); err != nil {
			b.Fatal(err)
		}
	}
	var sent int
	br.send = func(batch model.Batch) { sent = len(batch.Objects) }
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i := range changed {
			handler.OnUpdate(olds[i], news[i])
		}
		br.pump(true)
	}
	b.StopTimer()
	if sent != changed {
		b.Fatalf("the batch held %d objects, want %d", sent, changed)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*changed), "ns/object")
}
