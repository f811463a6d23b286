package watch

import (
	"context"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/clock"

	"rollscope/kube/memapi"
	"rollscope/model/cluster"
)

func benchPod(i int) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-" + strconv.Itoa(i), Namespace: "default", ResourceVersion: "1"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.25"}}},
	}
}

// BenchmarkBridgeUnder100kEventsASecond feeds pod updates to the bridge's
// cache at 100,000 a second while the bridge runs on the embedded API,
// and reports what reaches the screen (batches/s) and what each event costs
// the watching goroutine (ns/event).
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
	br := New(client, Scope{}, clock.RealClock{}, func(batch cluster.Batch) {
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
	feed := br.byKind["Pod"][0].feed
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
			// Each round stores the other version of every pod.
			version := news
			if (sent/pods)%2 == 1 {
				version = olds
			}
			if err := feed.Update(version[sent%pods]); err != nil {
				b.Fatal(err)
			}
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
	br := New(fake.NewClientset(), Scope{}, clock.RealClock{}, func(cluster.Batch) {}, Options{})
	feed := br.byKind["Pod"][0].feed
	olds, news := make([]*corev1.Pod, changed), make([]*corev1.Pod, changed)
	for i := range changed {
		olds[i], news[i] = benchPod(i), benchPod(i)
		news[i].ResourceVersion = "2"
		if err := feed.Add(olds[i]); err != nil {
			b.Fatal(err)
		}
	}
	var sent int
	br.send = func(batch cluster.Batch) { sent = len(batch.Objects) }
	b.ReportAllocs()
	b.ResetTimer()
	for n := range b.N {
		// Each round stores the other version of every pod.
		version := news
		if n%2 == 1 {
			version = olds
		}
		for i := range changed {
			if err := feed.Update(version[i]); err != nil {
				b.Fatal(err)
			}
		}
		br.pump(true)
	}
	b.StopTimer()
	if sent != changed {
		b.Fatalf("the batch held %d objects, want %d", sent, changed)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*changed), "ns/object")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
