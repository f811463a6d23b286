package memapi

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// resultBuffer lets the sender run a little ahead of a consumer that reads
// in bursts; the queue behind it is unbounded.
const resultBuffer = 64

// watcher is one open watch. Writers only append to its queue, so a slow or
// stopped consumer can never block a write and nothing is ever dropped; a
// goroutine per watcher copies queued objects and sends them.
type watcher struct {
	filter filter
	result chan watch.Event
	done   chan struct{}
	wake   chan struct{}

	mu      sync.Mutex
	queue   []watch.Event // objects are shared stored objects until sent
	closing bool          // end the stream once the queue is drained
	stopped bool

	stopOnce sync.Once
	release  func()
}

func newWatcher(f filter) *watcher {
	w := &watcher{
		filter: f,
		result: make(chan watch.Event, resultBuffer),
		done:   make(chan struct{}),
		wake:   make(chan struct{}, 1),
	}
	go w.send()
	return w
}

// ResultChan implements watch.Interface.
func (w *watcher) ResultChan() <-chan watch.Event { return w.result }

// Stop implements watch.Interface. It may be called any number of times;
// the result channel is closed soon after.
func (w *watcher) Stop() {
	w.stopOnce.Do(func() {
		close(w.done)
		w.mu.Lock()
		w.stopped = true
		w.queue = nil
		w.mu.Unlock()
		if w.release != nil {
			w.release()
		}
	})
}

// push queues an event; it never blocks.
func (w *watcher) push(typ watch.EventType, obj runtime.Object) {
	w.mu.Lock()
	if !w.stopped && !w.closing {
		w.queue = append(w.queue, watch.Event{Type: typ, Object: obj})
	}
	w.mu.Unlock()
	w.poke()
}

// end queues a last event (an error) and closes the stream after it.
func (w *watcher) end(typ watch.EventType, obj runtime.Object) {
	w.mu.Lock()
	if !w.stopped && !w.closing {
		w.queue = append(w.queue, watch.Event{Type: typ, Object: obj})
		w.closing = true
	}
	w.mu.Unlock()
	w.poke()
}

func (w *watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// offer queues what this watcher should see of a committed change. With
// selectors, an object that stops matching is reported Deleted and one that
// starts matching Added, as the real server does.
func (w *watcher) offer(c change) {
	if w.filter.everything() {
		w.push(c.typ, c.obj)
		return
	}
	now := w.filter.matches(c.obj)
	switch c.typ {
	case watch.Added, watch.Deleted:
		if now {
			w.push(c.typ, c.obj)
		}
	case watch.Modified:
		before := c.prev != nil && w.filter.matches(c.prev)
		switch {
		case before && now:
			w.push(watch.Modified, c.obj)
		case now:
			w.push(watch.Added, c.obj)
		case before:
			w.push(watch.Deleted, c.obj)
		}
	}
}

// send delivers queued events in order, each with its own deep copy so
// that consumers may modify what they receive.
func (w *watcher) send() {
	defer close(w.result)
	for {
		w.mu.Lock()
		batch := w.queue
		w.queue = nil
		closing := w.closing
		w.mu.Unlock()

		if len(batch) == 0 {
			if closing {
				return
			}
			select {
			case <-w.wake:
				continue
			case <-w.done:
				return
			}
		}
		for i := range batch {
			ev := watch.Event{Type: batch[i].Type, Object: batch[i].Object.DeepCopyObject()}
			batch[i] = watch.Event{} // release the stored object early
			select {
			case w.result <- ev:
			case <-w.done:
				return
			}
		}
	}
}
