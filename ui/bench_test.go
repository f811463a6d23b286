package ui

import (
	"fmt"
	"testing"
	"time"

	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// bigCluster is a rollout of 10,000 pods halfway through, on 1,000 nodes.
func bigCluster() *fakeSource { return rolloutOf(10000) }

// rolloutOf is a rollout of pods pods halfway through, on 1,000 nodes.
func rolloutOf(pods int) *fakeSource {
	src := midRollout()
	v := src.rollouts["shop/frontend"]
	states := make([]cluster.PodState, pods/2)
	for i := range states {
		states[i] = cluster.PodState(i % 7)
	}
	v.ReplicaSets[0].Pods = podRows("frontend-7b7d5974f6", "node", t0.Add(-time.Minute), states...)
	for i := range states {
		states[i] = cluster.PodReady
	}
	v.ReplicaSets[1].Pods = podRows("frontend-5d9c8f7b6c", "node", t0.Add(-time.Hour), states...)
	v.Replicas = int32(pods)
	src.rollouts["shop/frontend"] = v
	src.nodes = make([]cluster.NodeRow, 1000)
	for i := range src.nodes {
		src.nodes[i] = cluster.NodeRow{Name: fmt.Sprintf("node-%04d", i), Group: "pool-" + draw.Itoa(i%3),
			Ready: i%97 != 0, Schedulable: i%50 != 0, Pods: 10, UpToDate: i%2 == 0}
	}
	return src
}

func BenchmarkView10kPods1kNodes(b *testing.B) {
	for _, sz := range sizes {
		b.Run(draw.Itoa(sz.w)+"x"+draw.Itoa(sz.h), func(b *testing.B) {
			m := newTestModel(b, bigCluster(), &fakeClock{speed: 1}, sz.w, sz.h)
			m = send(m, press("tab")) // the pods pane: 5,000 rows
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// BenchmarkKeyRoundTrip is a key press through Update and the next frame,
// with the pods pane of a rollout of 10,000 and of 30,000 pods focused: a
// key must be answered well within 50 ms however large the namespace.
func BenchmarkKeyRoundTrip(b *testing.B) {
	for _, pods := range []int{10000, 30000} {
		b.Run(draw.Itoa(pods)+"pods", func(b *testing.B) {
			m := newTestModel(b, rolloutOf(pods), nil, 160, 48)
			m = send(m, press("tab"))
			down, up := press("j"), press("k")
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				k := down
				if i%2 == 1 {
					k = up
				}
				next, _ := m.Update(k)
				m = next.(Model)
				_ = m.View()
				i++
			}
		})
	}
}
