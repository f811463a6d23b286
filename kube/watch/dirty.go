package watch

import (
	"sync"

	"rollscope/model/cluster"
)

// dirtySet is the objects that changed since the last batch. Each kind's
// feed adds to it from its reflector's goroutine; the pump takes it whole.
// Whether an object was updated or deleted is not kept: the pump asks the
// cache, which by then holds the object's latest state or no longer holds it.
//
// It also wakes a resting pump: while nothing changes the pump waits for
// wake instead of looking every Interval, since on a quiet cluster twenty
// timer wake-ups a second were two fifths of an idle console's CPU.
type dirtySet struct {
	mu   sync.Mutex
	refs map[cluster.ObjectRef]struct{}
	// spare is the map handed out by the previous take, cleared and reused
	// so that steady churn allocates no new maps.
	spare map[cluster.ObjectRef]struct{}
	// resting: the pump waits on wake; the first mark or poke since sends
	// on it, once.
	resting bool
	wake    chan struct{}
}

func newDirtySet() *dirtySet {
	return &dirtySet{refs: map[cluster.ObjectRef]struct{}{}, spare: map[cluster.ObjectRef]struct{}{}, wake: make(chan struct{}, 1)}
}

func (d *dirtySet) mark(ref cluster.ObjectRef) {
	d.mu.Lock()
	d.refs[ref] = struct{}{}
	d.wakeLocked()
}

// poke wakes a resting pump for a change that marks no object: a watch
// failing, the API server's health.
func (d *dirtySet) poke() {
	d.mu.Lock()
	d.wakeLocked()
}

// wakeLocked sends on wake if the pump rests, and unlocks d.
func (d *dirtySet) wakeLocked() {
	wake := d.resting
	d.resting = false
	d.mu.Unlock()
	if wake {
		select {
		case d.wake <- struct{}{}:
		default:
		}
	}
}

// rest tells marks to wake the pump from now on, unless something is
// marked already (then it reports false and the pump goes on).
func (d *dirtySet) rest() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.refs) > 0 {
		return false
	}
	d.resting = true
	return true
}

// take returns the marked objects and starts a new, empty set. The returned
// map is valid until the next take.
func (d *dirtySet) take() map[cluster.ObjectRef]struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.refs) == 0 {
		return nil
	}
	taken := d.refs
	clear(d.spare)
	d.refs, d.spare = d.spare, taken
	return taken
}
