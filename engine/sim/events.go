package sim

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/eventpack"
)

// eventCache is the runner's cache of events. No lister reads it: it only
// tells the handlers an update from an add, and hands them the event an
// update replaced. A run keeps every event it records (200,000 in a
// 100,000-replica rollout). When the source hands each change what it
// replaced (ChangeSource: the embedded API), the cache keeps only their
// names; otherwise it holds each event packed, as the embedded API does,
// read back — equal, field for field — only for an update.
type eventCache struct {
	names  map[eventKey]struct{}         // with a ChangeSource
	packed map[eventKey]eventpack.Packed // without one
	other  map[eventKey]*corev1.Event    // without one: the events that do not pack
	packer eventpack.Packer
}

type eventKey struct{ namespace, name string }

func newEventCache(namesOnly bool) *eventCache {
	if namesOnly {
		return &eventCache{names: map[eventKey]struct{}{}}
	}
	return &eventCache{packed: map[eventKey]eventpack.Packed{}, other: map[eventKey]*corev1.Event{}}
}

// put stores e and reports whether an event of its name was held. prev is
// the stored event e replaced, as the source told it (nil without a
// ChangeSource).
func (c *eventCache) put(e *corev1.Event, prev runtime.Object) (old replaced, existed bool) {
	k := eventKey{e.Namespace, e.Name}
	if c.names != nil {
		if _, existed = c.names[k]; existed {
			// The source replaced what the cache holds: the runner sees
			// every change from before the first object existed.
			old.event, _ = prev.(*corev1.Event)
		} else {
			c.names[k] = struct{}{}
		}
		return old, existed
	}
	if p, ok := c.packed[k]; ok {
		old, existed = replaced{packed: p, name: k.name}, true
	} else if prev, ok := c.other[k]; ok {
		old, existed = replaced{event: prev}, true
	}
	if p, ok := c.packer.Pack(e); ok {
		c.packed[k] = p
		if old.event != nil {
			delete(c.other, k)
		}
	} else {
		c.other[k] = e
		if old.packed.Valid() {
			delete(c.packed, k)
		}
	}
	return old, existed
}

// replaced is the event a put replaced, read back only when a handler
// needs it.
type replaced struct {
	packed eventpack.Packed
	name   string
	event  *corev1.Event // as the source told it, or an event that did not pack
}

func (r replaced) read() *corev1.Event {
	if r.event != nil || !r.packed.Valid() {
		return r.event
	}
	return r.packed.Event(r.name)
}

func (c *eventCache) remove(e *corev1.Event) {
	k := eventKey{e.Namespace, e.Name}
	delete(c.names, k)
	delete(c.packed, k)
	delete(c.other, k)
}
