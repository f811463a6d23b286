package live

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model/kind"
)

// Observer sees one change to an object the runner watches, as a watch
// event, with the wall time it was delivered.
type Observer func(now time.Time, ev watch.Event)

// traced are the kinds a trace follows (engine/trace): workloads of every
// kind (a custom one where the runner watches it), ReplicaSets, their pods and events, and nodes; and the
// ControllerRevisions, which the trace leaves out but an observer checking
// revisions reads.
var traced = func() []control.Kind {
	var ks []control.Kind
	for _, e := range kind.All() {
		ks = append(ks, control.Workload(e.Kind))
	}
	return append(ks, control.ReplicaSets, control.ControllerRevisions, control.Pods, control.Events, control.Nodes)
}()

// Observe feeds fn every change to the kinds a trace follows, from the
// informers' caches: objects already cached arrive first as Added, and after
// a lost watch the informers' relist brings each object's latest state (an
// object deleted meanwhile arrives as Deleted with its last known state).
// The informers deliver each kind in order, the kinds side by side: fn must
// be safe for concurrent use. Kinds the runner does not watch are left out.
func (r *Runner) Observe(fn Observer) error {
	deliver := func(t watch.EventType, obj any) {
		if o, ok := obj.(runtime.Object); ok {
			fn(time.Now(), watch.Event{Type: t, Object: o})
		}
	}
	for _, kind := range traced {
		inf, ok := r.informers[kind]
		if !ok {
			continue // not watched by this runner (Scope.Workloads)
		}
		_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { deliver(watch.Added, obj) },
			UpdateFunc: func(_, obj any) { deliver(watch.Modified, obj) },
			DeleteFunc: func(obj any) {
				if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
					obj = tomb.Obj
				}
				deliver(watch.Deleted, obj)
			},
		})
		if err != nil {
			return fmt.Errorf("observing %s: %w", kind, err)
		}
	}
	return nil
}
