package memapi_test

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BenchmarkWatchBurst measures a burst of pod creations with three client-go
// informers attached, until all three have seen every pod.
func BenchmarkWatchBurst(b *testing.B) {
	pods := make([]*corev1.Pod, burstSize)
	for i := range pods {
		pods[i] = burstPod(i)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		f := newFixture(b)
		stop := make(chan struct{})
		var counters []*podCounter
		for range 3 {
			counters = append(counters, startPodCounter(b, f.client, burstSize, stop))
		}
		b.StartTimer()

		for _, p := range pods {
			if _, err := f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		for _, c := range counters {
			<-c.done
		}

		b.StopTimer()
		close(stop)
		for _, c := range counters {
			c.factory.Shutdown()
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*burstSize), "ns/pod")
}

func BenchmarkCreatePod(b *testing.B) {
	f := newFixture(b)
	p := pod("", "bench")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Name = fmt.Sprintf("pod-%d", i)
		i++
		if _, err := f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdatePodStatus(b *testing.B) {
	f := newFixture(b)
	p := f.runningPod(b, "p", "bench", "node-1", true)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// Each write changes the status, as a kubelet's would.
		p.Status.Message = fmt.Sprintf("probe %d", i)
		i++
		var err error
		if p, err = f.client.CoreV1().Pods("default").UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
