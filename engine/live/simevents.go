package live

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// observeNodeEvents feeds the trace the events about the run's hollow
// nodes (cordons, drains, a roll's steps). Events about a cluster-scoped
// object are kept in the default namespace, outside the run's, so they
// need a watch of their own; it lasts as long as ctx.
func (r *Run) observeNodeEvents(ctx context.Context) error {
	f := informers.NewSharedInformerFactoryWithOptions(r.client, 0,
		informers.WithNamespace(metav1.NamespaceDefault),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("involvedObject.kind", "Node").String()
		}))
	inf := f.Core().V1().Events().Informer()
	deliver := func(t watch.EventType, obj any) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if e, ok := obj.(*corev1.Event); ok {
			r.observe(time.Now(), watch.Event{Type: t, Object: e})
		}
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { deliver(watch.Added, obj) },
		UpdateFunc: func(_, obj any) { deliver(watch.Modified, obj) },
		DeleteFunc: func(obj any) { deliver(watch.Deleted, obj) },
	}); err != nil {
		return fmt.Errorf("observing node events: %w", err)
	}
	f.Start(ctx.Done())
	return nil
}

// nodeEventForTrace shows an event about one of the run's nodes under the
// scenario's node names, in its message too; events about other nodes are
// not the run's.
func (h hollowNames) nodeEventForTrace(e *corev1.Event) (*corev1.Event, bool) {
	if e.InvolvedObject.Kind != "Node" {
		return e, true
	}
	name, ok := h.scenarioNode(e.InvolvedObject.Name)
	if !ok {
		return nil, false
	}
	out := *e
	out.InvolvedObject.Name = name
	out.Message = strings.ReplaceAll(e.Message, h.prefix, "")
	return &out, true
}
