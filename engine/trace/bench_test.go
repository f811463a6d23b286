package trace_test

import (
	"fmt"
	"io"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/trace"
)

// BenchmarkObservePodStatus is the commonest event of a run: a pod's status
// changes while it stays on its node, so no line is due.
func BenchmarkObservePodStatus(b *testing.B) {
	w := trace.New(io.Discard, trace.JSONL, start, groups)
	w.Observe(start, watch.Event{Type: watch.Added, Object: node("nodes-0", "v2", true, false)})
	pods := make([]*corev1.Pod, 1000)
	for i := range pods {
		pods[i] = pod(fmt.Sprintf("frontend-%d", i), "nodes-0", corev1.PodRunning)
		w.Observe(start, watch.Event{Type: watch.Added, Object: pods[i]})
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		w.Observe(start, watch.Event{Type: watch.Modified, Object: pods[i%len(pods)]})
		i++
	}
}

// BenchmarkObservePodReschedule moves a pod between two nodes on every
// event, so each one writes two node lines.
func BenchmarkObservePodReschedule(b *testing.B) {
	w := trace.New(io.Discard, trace.JSONL, start, groups)
	w.Observe(start, watch.Event{Type: watch.Added, Object: node("nodes-0", "v2", true, false)})
	w.Observe(start, watch.Event{Type: watch.Added, Object: node("nodes-1", "v2", true, false)})
	on := [2]*corev1.Pod{pod("p", "nodes-0", corev1.PodRunning), pod("p", "nodes-1", corev1.PodRunning)}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		w.Observe(start, watch.Event{Type: watch.Modified, Object: on[i&1]})
		i++
	}
}

// BenchmarkObserveReplicaSet writes a line on every event: the ReplicaSet's
// ready count alternates.
func BenchmarkObserveReplicaSet(b *testing.B) {
	for _, f := range []trace.Format{trace.JSONL, trace.Table} {
		b.Run(string(f), func(b *testing.B) {
			w := trace.New(io.Discard, f, start, groups)
			states := [2]watch.Event{
				{Type: watch.Modified, Object: replicaSet("frontend-6b9d5", "2", 25, 25, 24, 24)},
				{Type: watch.Modified, Object: replicaSet("frontend-6b9d5", "2", 25, 25, 25, 25)},
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				w.Observe(at(float64(i)/1000), states[i&1])
				i++
			}
		})
	}
}

// BenchmarkObserveReplicaSetUnchanged is a status write that changes nothing
// the trace shows, as resyncs and observedGeneration bumps do.
func BenchmarkObserveReplicaSetUnchanged(b *testing.B) {
	w := trace.New(io.Discard, trace.JSONL, start, groups)
	ev := watch.Event{Type: watch.Modified, Object: replicaSet("frontend-6b9d5", "2", 25, 25, 25, 25)}
	b.ReportAllocs()
	for b.Loop() {
		w.Observe(start, ev)
	}
}
