package control

import (
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/tools/cache"
)

// Keys is where a controller's handlers put keys: the queue its runner
// hands to Watches, which handlers and Sync then read on the runner's
// goroutines. Before Watches, and for an empty key, adding does nothing,
// so a handler can pass on whatever key it computed.
type Keys struct {
	mu    sync.Mutex
	queue Queue
}

// Set is Watches' first step: the queue every later add goes to.
func (k *Keys) Set(q Queue) {
	k.mu.Lock()
	k.queue = q
	k.mu.Unlock()
}

func (k *Keys) get() Queue {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.queue
}

// Add queues key now.
func (k *Keys) Add(key string) {
	if q := k.get(); q != nil && key != "" {
		q.Add(key)
	}
}

// AddAfter queues key once d has passed on the runner's clock: what a
// controller waits for with no event to say so (minReadySeconds).
func (k *Keys) AddAfter(key string, d time.Duration) {
	if q := k.get(); q != nil && key != "" {
		q.AddAfter(key, d)
	}
}

// Lookup is how a Sync starts: the object at key, read with get (a
// lister's Namespace(ns).Get). found is false when there is nothing to do —
// the key is malformed, or the object is gone — and err is what the runner
// should retry.
func Lookup[T any](key string, get func(namespace, name string) (T, error)) (obj T, found bool, err error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return obj, false, nil
	}
	obj, err = get(ns, name)
	if apierrors.IsNotFound(err) {
		return obj, false, nil
	}
	return obj, err == nil, err
}
