package watch

import (
	"sync"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/model"
)

// source is one kind the bridge watches: its reflector, its cache, and
// whether its list/watch is failing.
type source struct {
	kind      string // model.ObjectRef.Kind
	rank      int    // where the kind comes in a batch
	reflector *cache.Reflector
	feed      *feed

	// mu guards the failure record. failing mirrors problem != "" so that
	// the handlers, which run for every event, need no lock to ask.
	mu        sync.Mutex
	problem   string
	problemRV string // the cache's resourceVersion when the failure was seen
	failing   atomic.Bool
	heard     atomic.Bool // an event arrived since the failure
	// forbidden is set while the cluster refuses this kind to the user
	// (403), as it refuses nodes to someone who may only read a namespace.
	forbidden atomic.Bool
}

func (s *source) mark(dirty *dirtySet, obj any) {
	if ref, ok := s.refOf(obj); ok {
		dirty.mark(ref)
	}
}

// refOf names an object from an event, or from a tombstone (an object whose
// deletion was missed while disconnected).
func (s *source) refOf(obj any) (model.ObjectRef, bool) {
	if m, ok := obj.(metav1.Object); ok {
		return model.ObjectRef{Kind: s.kind, Namespace: m.GetNamespace(), Name: m.GetName()}, true
	}
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		ns, name, err := cache.SplitMetaNamespaceKey(t.Key)
		if err != nil {
			return model.ObjectRef{}, false
		}
		return model.ObjectRef{Kind: s.kind, Namespace: ns, Name: name}, true
	}
	return model.ObjectRef{}, false
}

// get reads an object's current state from the cache.
func (s *source) get(ref model.ObjectRef) (any, bool) {
	key := ref.Name
	if ref.Namespace != "" {
		key = ref.Namespace + "/" + ref.Name
	}
	obj, ok, err := s.feed.cache.GetByKey(key)
	return obj, ok && err == nil
}
