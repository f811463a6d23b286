package watch

import (
	"sync"

	"rollscope/model/cluster"
)

// dirtySet is the objects that changed since the last batch. Each kind's
// feed adds to it from its reflector's goroutine; the pump takes it whole.
// Whether an object was updated or deleted is not kept: the pump asks the
// cache, which by then holds the object's latest state or no longer holds it.
type dirtySet struct {
	mu   sync.Mutex
	refs map[cluster.ObjectRef]struct{}
	// spare is the map handed out by the previous take, cleared and reused
	// so that steady churn allocates no new maps.
	spare map[cluster.ObjectRef]struct{}
}

func newDirtySet() *dirtySet {
	return &dirtySet{refs: map[cluster.ObjectRef]struct{}{}, spare: map[cluster.ObjectRef]struct{}{}}
}

func (d *dirtySet) mark(ref cluster.ObjectRef) {
	d.mu.Lock()
	d.refs[ref] = struct{}{}
	d.mu.Unlock()
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
