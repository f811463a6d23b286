package watch

import (
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/tools/cache"

	"rollscope/model/cluster"
)

// source is one kind the bridge watches: its reflector, its cache, and
// whether its list/watch is failing.
type source struct {
	kind      string // model.ObjectRef.Kind
	rank      int    // where the kind comes in a batch
	reflector *cache.Reflector
	feed      *feed
	// pageTimeout bounds each page of a list (--request-timeout), 0 none.
	pageTimeout time.Duration
	// pageLimit, once a page has outlasted pageTimeout, is the most objects
	// a page asks for from then on (firstlist.go); 0 until then.
	pageLimit atomic.Int64
	// listed counts the objects the current first list has brought so far,
	// for the progress line while it is incomplete.
	listed *atomic.Int64

	// mu guards the failure record. failing mirrors problem != "" so that
	// the reflector, which asks for every event, needs no lock to ask.
	mu        sync.Mutex
	problem   string
	problemRV string // the cache's resourceVersion when the failure was seen
	failing   atomic.Bool
	heard     atomic.Bool // an event arrived since the failure
	// forbidden is set while the cluster refuses this kind to the user
	// (403), as it refuses nodes to someone who may only read a namespace.
	forbidden atomic.Bool
}

// get reads an object's current state from the cache.
func (s *source) get(ref cluster.ObjectRef) (any, bool) {
	return s.feed.get(objectName{ref.Namespace, ref.Name})
}
