package sim

import (
	corev1 "k8s.io/api/core/v1"

	"rollscope/model/eventpack"
)

// eventCache is the runner's cache of events. No lister reads it: it only
// tells the handlers an update from an add, and hands them the event an
// update replaced. A run keeps every event it records (200,000 in a
// 100,000-replica rollout), so each is held packed, as the embedded API
// holds it, and read back — equal, field for field — only for an update.
type eventCache struct {
	items  map[eventKey]cachedEvent
	packer eventpack.Packer
}

type eventKey struct{ namespace, name string }

// cachedEvent is an event packed, or, for one that does not pack, the
// event itself.
type cachedEvent struct {
	packed eventpack.Packed
	event  *corev1.Event
}

func (c cachedEvent) read() *corev1.Event {
	if c.event != nil {
		return c.event
	}
	return c.packed.Event()
}

func newEventCache() *eventCache {
	return &eventCache{items: map[eventKey]cachedEvent{}}
}

// put stores e and reports whether an event of its name was held; old reads
// that event back.
func (c *eventCache) put(e *corev1.Event) (old cachedEvent, existed bool) {
	k := eventKey{e.Namespace, e.Name}
	old, existed = c.items[k]
	if p, ok := c.packer.Pack(e); ok {
		c.items[k] = cachedEvent{packed: p}
	} else {
		c.items[k] = cachedEvent{event: e}
	}
	return old, existed
}

func (c *eventCache) remove(e *corev1.Event) {
	delete(c.items, eventKey{e.Namespace, e.Name})
}
