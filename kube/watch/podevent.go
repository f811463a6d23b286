package watch

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiwatch "k8s.io/apimachinery/pkg/watch"
)

// watchEventFrames reads the frame of a protobuf watch event (a
// metav1.WatchEvent: its type and the object's bytes) without the scheme:
// the protobuf serializer would look the WatchEvent's kind up in the scheme
// and copy the object's bytes for every event, only for client-go to decode
// them at once (wireDecoder) and drop them. The object's bytes are
// viewed in the stream's buffer, which client-go's watch decoder reads
// before it reads the next frame.
type watchEventFrames struct {
	runtime.Serializer
}

var watchEventKind = metav1.SchemeGroupVersion.WithKind("WatchEvent")

func (d watchEventFrames) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	ev, ok := into.(*metav1.WatchEvent)
	if !ok {
		return d.Serializer.Decode(data, defaults, into)
	}
	typ, raw, ok := watchEventFields(data)
	if !ok {
		return d.Serializer.Decode(data, defaults, into)
	}
	ev.Type = typ
	ev.Object = runtime.RawExtension{Raw: raw}
	gvk := watchEventKind
	return ev, &gvk, nil
}

// watchEventFields reads a WatchEvent message: type is field 1, object
// field 2, a RawExtension whose raw bytes are its field 1. ok is false for
// anything else — a field repeated or unknown, a malformed message — which
// the protobuf serializer then decodes as before, errors included.
func watchEventFields(b []byte) (typ string, raw []byte, ok bool) {
	w := wire{b: b}
	var sawType, sawObject bool
	for {
		num, ty, more := w.next()
		if !more {
			break
		}
		switch {
		case num == 1 && ty == 2 && !sawType:
			typ, sawType = eventType(w.raw()), true
		case num == 2 && ty == 2 && !sawObject:
			ext := wire{b: w.raw()}
			n, t, has := ext.next()
			if !has || n != 1 || t != 2 {
				return "", nil, false
			}
			raw = ext.raw()
			if _, _, extra := ext.next(); extra || ext.err != nil {
				return "", nil, false
			}
			sawObject = true
		default:
			return "", nil, false
		}
		if w.err != nil {
			return "", nil, false
		}
	}
	return typ, raw, w.err == nil && sawType && sawObject
}

// eventType names the event without a new string for each of the five
// types the API server sends.
func eventType(b []byte) string {
	for _, t := range []apiwatch.EventType{apiwatch.Added, apiwatch.Modified, apiwatch.Deleted, apiwatch.Bookmark, apiwatch.Error} {
		if string(b) == string(t) {
			return string(t)
		}
	}
	return string(b)
}
