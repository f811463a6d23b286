package trace

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// followed is the trace's memory of one namespaced kind: the last projection
// of every object, so that a line is written only when one of its fields
// changes, and a deletion line when the object goes.
type followed[O object, L comparable] struct {
	kind    string
	project func(O) L
	write   func(w *Writer, t time.Duration, key objectKey, l L)
	last    map[objectKey]L
}

func follow[O object, L comparable](kind string, project func(O) L, write func(*Writer, time.Duration, objectKey, L)) followed[O, L] {
	return followed[O, L]{kind: kind, project: project, write: write, last: map[objectKey]L{}}
}

// object is a followed kind's object: a pointer, so that a typed nil can
// be told apart.
type object interface {
	comparable
	metav1.Object
}

// observe takes one committed change of the object o. A typed nil in an
// event is not an object: it is skipped.
func (f *followed[O, L]) observe(w *Writer, t time.Duration, o O, deleted bool) {
	var none O
	if o == none {
		return
	}
	key := objectKey{o.GetNamespace(), o.GetName()}
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
