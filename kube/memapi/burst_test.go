package memapi_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

const burstSize = 10_000

// podCounter starts a pod informer in its own factory (its own watch) and
// counts the pods it has been told about.
type podCounter struct {
	seen    atomic.Int64
	done    chan struct{}
	factory informers.SharedInformerFactory
}

func startPodCounter(tb testing.TB, client kubernetes.Interface, want int64, stop chan struct{}) *podCounter {
	c := &podCounter{done: make(chan struct{}), factory: informers.NewSharedInformerFactory(client, 0)}
	_, err := c.factory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) {
			if c.seen.Add(1) == want {
				close(c.done)
			}
		},
	})
	if err != nil {
		tb.Fatal(err)
	}
	c.factory.Start(stop)
	c.factory.WaitForCacheSync(stop)
	return c
}

func burstPod(i int) *corev1.Pod {
	return pod(fmt.Sprintf("pod-%05d", i), "burst")
}

func TestBurstNothingDroppedNothingBlocked(t *testing.T) {
	f := newFixture(t)
	stop := make(chan struct{})
	var counters []*podCounter
	defer func() {
		close(stop)
		for _, c := range counters {
			c.factory.Shutdown()
		}
	}()
	for range 3 {
		counters = append(counters, startPodCounter(t, f.client, burstSize, stop))
	}
	idle := must(f.client.CoreV1().Pods("default").Watch(ctx, metav1.ListOptions{}))(t)
	defer idle.Stop()

	// The writer goes flat out while one watcher is not read at all.
	for i := range burstSize {
		must(f.client.CoreV1().Pods("default").Create(ctx, burstPod(i), metav1.CreateOptions{}))(t)
	}
	for i, c := range counters {
		eventually(t, fmt.Sprintf("informer %d saw all %d pods", i, burstSize), func() bool {
			select {
			case <-c.done:
				return true
			default:
				return false
			}
		})
		if pods := c.factory.Core().V1().Pods().Informer().GetStore().List(); len(pods) != burstSize {
			t.Fatalf("informer %d holds %d pods, want %d", i, len(pods), burstSize)
		}
	}
	// The idle watcher kept everything, in commit order.
	for i := range burstSize {
		ev := next(t, idle)
		if want := burstPod(i).Name; ev.Type != watch.Added || ev.Object.(*corev1.Pod).Name != want {
			t.Fatalf("idle watcher event %d: %s, want ADDED %s", i, describe(ev), want)
		}
	}
}
