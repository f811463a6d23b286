package main

import (
	"context"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
)

// countPodEvents counts the pod events in namespace ("" for all) that
// count says to, from now until stop. The API server may end a watch at
// any time, the sooner on a loaded machine; the count resumes from the last
// event seen rather than end there, which undercounted a rollout's events
// tenfold.
func countPodEvents(ctx context.Context, admin kubernetes.Interface, namespace string, count func(metav1.Object) bool) (*atomic.Int64, func(), error) {
	list, err := admin.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		return nil, nil, err
	}
	pods := admin.CoreV1().Pods(namespace)
	w, err := watchtools.NewRetryWatcherWithContext(ctx, list.ResourceVersion, &cache.ListWatch{
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (apiwatch.Interface, error) {
			return pods.Watch(ctx, opts)
		},
	})
	if err != nil {
		return nil, nil, err
	}
	var events atomic.Int64
	go func() {
		for ev := range w.ResultChan() {
			if m, ok := ev.Object.(metav1.Object); ok && ev.Type != apiwatch.Bookmark && ev.Type != apiwatch.Error && count(m) {
				events.Add(1)
			}
		}
	}()
	return &events, w.Stop, nil
}
