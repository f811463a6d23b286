package kubelet

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	testingclock "k8s.io/utils/clock/testing"

	"rollscope/engine/control"
)

type countingQueue struct{ adds int }

func (q *countingQueue) Add(string)                     { q.adds++ }
func (q *countingQueue) AddAfter(string, time.Duration) { q.adds++ }

// BenchmarkSync10000Pods runs a 10,000-pod rollout through the kubelet: each
// pod is synced at first sight, when its containers start and when they are
// ready, each sync writing the status. One op is one whole rollout; the
// ns/sync metric is what one kubelet sync costs, status write included.
// "fake-api" writes through client-go's fake object tracker; "cache-only"
// answers the write at once, which leaves the kubelet's own cost.
func BenchmarkSync10000Pods(b *testing.B) {
	b.Run("fake-api", func(b *testing.B) { benchmarkRollout(b, false) })
	b.Run("cache-only", func(b *testing.B) { benchmarkRollout(b, true) })
}

func benchmarkRollout(b *testing.B, cacheOnly bool) {
	const pods = 10000
	rules := []ImageRule{{Match: "*", Pull: time.Second, Start: time.Second, Ready: time.Second, Jitter: 500 * time.Millisecond}}
	ctx := context.Background()
	syncs := 0
	var elapsed time.Duration
	for b.Loop() {
		b.StopTimer()
		clock := testingclock.NewFakePassiveClock(t0)
		client := fake.NewSimpleClientset()
		podIndex := cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Pods))
		nodeIndex := cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Nodes))
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Status: corev1.NodeStatus{
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
			Addresses:  []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.1"}},
		}}
		_ = nodeIndex.Add(node)
		keys := make([]string, pods)
		for i := range pods {
			p := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%05d", i), Namespace: "default", UID: types.UID(fmt.Sprintf("uid-%d", i))},
				Spec: corev1.PodSpec{NodeName: "n1", Containers: []corev1.Container{
					{Name: "app", Image: "web:v2"}, {Name: "proxy", Image: "envoy:v1"},
				}},
			}
			if err := client.Tracker().Add(p); err != nil {
				b.Fatal(err)
			}
			_ = podIndex.Add(p)
			keys[i] = "default/" + p.Name
		}
		// The informer: every status write lands in the cache.
		client.PrependReactor("update", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
			obj := a.(clienttesting.UpdateAction).GetObject()
			_ = podIndex.Update(obj.DeepCopyObject())
			return cacheOnly, obj, nil
		})
		k := New(&control.Env{
			Client:  client,
			Listers: control.Listers{Pods: corelisters.NewPodLister(podIndex), Nodes: corelisters.NewNodeLister(nodeIndex), PodIndex: podIndex},
			Clock:   clock,
			Rand:    rand.New(rand.NewSource(1)),
		}, rules, Options{})
		k.Watches(&countingQueue{})
		start := time.Now()
		b.StartTimer()

		for _, at := range []time.Duration{0, 2 * time.Second, 4 * time.Second} {
			clock.SetTime(t0.Add(at))
			for _, key := range keys {
				if err := k.Sync(ctx, key); err != nil {
					b.Fatal(err)
				}
			}
			syncs += len(keys)
		}
		b.StopTimer()
		elapsed += time.Since(start)
		for _, key := range keys {
			obj, _, _ := podIndex.GetByKey(key)
			if !isReady(&obj.(*corev1.Pod).Status) {
				b.Fatalf("pod %s is not ready at the end of the rollout", key)
			}
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(syncs), "ns/sync")
}
