package trace

import "time"

// followed is the trace's memory of one namespaced kind: the last projection
// of every object, so that a line is written only when one of its fields
// changes, and a deletion line when the object goes.
type followed[O any, L comparable] struct {
	kind    string
	project func(O) L
	write   func(w *Writer, t time.Duration, key objectKey, l L)
	last    map[objectKey]L
}

func follow[O any, L comparable](kind string, project func(O) L, write func(*Writer, time.Duration, objectKey, L)) followed[O, L] {
	return followed[O, L]{kind: kind, project: project, write: write, last: map[objectKey]L{}}
}

// observe takes one committed change of the object o, stored under key.
func (f *followed[O, L]) observe(w *Writer, t time.Duration, key objectKey, o O, deleted bool) {
	if deleted {
		delete(f.last, key)
		w.writeDeleted(t, f.kind, key)
		return
	}
	if l := f.project(o); record(f.last, key, l) {
		f.write(w, t, key, l)
	}
}

// record keeps l as the latest projection of key and reports whether it
// differs from the one before, that is whether a line is due.
func record[L comparable](m map[objectKey]L, key objectKey, l L) bool {
	if old, ok := m[key]; ok && old == l {
		return false
	}
	m[key] = l
	return true
}
