package recording

import "bytes"

// Deltas keeps the last version of each object told, so that the next one
// is told as a merge patch from it. A writer and a reader each keep one,
// in step (Versions): the reader's answers are the writer's objects.
type Deltas struct {
	last map[Ref][]byte
}

// NewDeltas starts with no object told.
func NewDeltas() *Deltas { return &Deltas{last: map[Ref][]byte{}} }

// Tell is the change that takes the reader from the version told before
// to obj (an object's JSON): the whole object when it is new or the patch
// would be no shorter; false when nothing changed.
func (d *Deltas) Tell(ref Ref, obj []byte) (Change, bool) {
	was, ok := d.last[ref]
	d.last[ref] = obj
	if !ok {
		return Change{Ref: ref, Object: obj}, true
	}
	if bytes.Equal(was, obj) {
		return Change{}, false
	}
	patch, ok := mergePatch(was, obj)
	if !ok || len(patch) >= len(obj) {
		return Change{Ref: ref, Object: obj}, true
	}
	return Change{Ref: ref, Patch: patch}, true
}

// Forget drops a deleted object: if it comes back, it is told whole.
func (d *Deltas) Forget(ref Ref) { delete(d.last, ref) }
