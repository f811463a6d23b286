package watch

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// calls is one kind's list and watch in a typed client, as
// client.AppsV1().Deployments(ns) offers them.
type calls[L runtime.Object] interface {
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (apiwatch.Interface, error)
}

// observed is the list and watch of c, each call reporting its outcome to s.
//
// client-go's reflector retries a watch that the API server refuses
// (connection refused) by itself, with back-off, without returning an
// error: once the watches are established, a bridge that only heard
// ListAndWatch's errors would never learn that the API server went away,
// and would show a stale picture as if it were live. Every list and watch
// call therefore reports here: a failed one marks the kind failing, a
// successful one says the API server answers again.
//
// client is the client c's calls go through (a clientset, or the dynamic
// client of a custom resource): it says whether it streams lists.
func observed[L runtime.Object](s *source, c calls[L], client any) cache.ListerWatcher {
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			pageCtx, cancel, opts := s.page(ctx, opts)
			defer cancel()
			list, err := c.List(pageCtx, opts)
			s.called(ctx, err)
			if err == nil {
				s.countPage(list)
			} else {
				s.pageTimedOut(pageCtx, ctx, opts.Limit)
			}
			return list, err
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (apiwatch.Interface, error) {
			s.streaming(opts)
			w, err := c.Watch(ctx, opts)
			s.called(ctx, err)
			return w, err
		},
	}
	// As client-go's own informers do: streaming lists only where the
	// client supports them (fake clientsets do not).
	return cache.ToListWatcherWithWatchListSemantics(lw, client)
}

// called hears the outcome of one list or watch call.
func (s *source) called(ctx context.Context, err error) {
	switch {
	case err == nil:
		s.alive()
	case ctx.Err() != nil:
		// The bridge is stopping; nothing failed.
	default:
		s.failed(nil, err)
	}
}
