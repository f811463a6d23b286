package main

import (
	"context"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
)

// deliveries is the harness's own watch of the namespace's ReplicaSets:
// for each, the counts its last event brought and when. When a console's
// rows are behind the API's, it tells a late watch from a late console —
// a console cannot show a state before the API server's watch sends it,
// and on a loaded machine that watch can trail a list by more than a
// settled moment's 700 ms.
type deliveries struct {
	mu     sync.Mutex
	latest map[string]delivery // by pod-template-hash
}

type delivery struct {
	counts [4]int
	at     time.Time
}

// watchDeliveries watches namespace's ReplicaSets from now until stop.
func watchDeliveries(ctx context.Context, admin kubernetes.Interface, namespace string) (*deliveries, func(), error) {
	rss := admin.AppsV1().ReplicaSets(namespace)
	list, err := rss.List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, nil, err
	}
	d := &deliveries{latest: map[string]delivery{}}
	for i := range list.Items {
		d.note(&list.Items[i])
	}
	w, err := watchtools.NewRetryWatcherWithContext(ctx, list.ResourceVersion, &cache.ListWatch{
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (apiwatch.Interface, error) {
			return rss.Watch(ctx, opts)
		},
	})
	if err != nil {
		return nil, nil, err
	}
	go func() {
		for ev := range w.ResultChan() {
			if rs, ok := ev.Object.(*appsv1.ReplicaSet); ok && ev.Type != apiwatch.Deleted {
				d.note(rs)
			}
		}
	}()
	return d, w.Stop, nil
}

func (d *deliveries) note(rs *appsv1.ReplicaSet) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.latest[rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey]] = delivery{counts: rsCounts(rs), at: time.Now()}
}

// of is when the watch brought the ReplicaSet's counts, false when the
// last it brought are others: the watch has not sent the counts yet.
func (d *deliveries) of(hash string, counts [4]int) (time.Time, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	l, ok := d.latest[hash]
	return l.at, ok && l.counts == counts
}
