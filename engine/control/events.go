package control

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/utils/clock"
)

// APIRecorder writes events through the API as client-go's event
// broadcaster does — through client-go's own EventCorrelator, so similar
// events are aggregated, repeats only bump a count, and each object's events
// are rate-limited (a burst of 25, then one per five minutes) — but
// synchronously, on the runner's clock, and with names that depend only on
// the object and a counter, so that a simulation run is reproducible.
type APIRecorder struct {
	Client    kubernetes.Interface
	Clock     clock.PassiveClock
	Component string

	mu         sync.Mutex
	n          uint64
	correlator *correlator
	events     *Namespaced[corev1client.EventInterface]
	kinds      map[reflect.Type]schema.GroupVersionKind // by the type of an object without a kind
	versions   map[schema.GroupVersion]string           // "group/version" of the named groups
}

// client-go's defaults for an event broadcaster's spam filter: each object
// gets a burst of 25 events, then one every five minutes.
const (
	spamBurst     = 25
	spamQPS       = float32(1.0 / 300)
	spamCacheSize = 4096
)

// Eventf implements Recorder. Failures to record are ignored, as upstream
// does.
func (r *APIRecorder) Eventf(obj runtime.Object, eventType, reason, messageFmt string, args ...any) {
	if ev := r.event(obj, eventType, reason, messageFmt, args...); ev != nil {
		r.send(ev)
	}
}

// event is the event Eventf sends: nil for an object without metadata, and
// for one the spam filter drops, which is never built. The filter is asked
// first, on its own: upstream asks it last, after building a patch for every
// event it then drops, but it keys on source, object and type, which neither
// the event's name and message nor aggregation change, so it takes the same
// decisions. A ReplicaSet's events past its burst of 25 are most of those a
// big rollout records (its pods' are never dropped). Upstream's correlator
// has a second filter of its own, opened wide by the broadcaster's defaults;
// it never drops, so it is left out.
func (r *APIRecorder) event(obj runtime.Object, eventType, reason, messageFmt string, args ...any) *corev1.Event {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	kind := obj.GetObjectKind().GroupVersionKind()
	r.mu.Lock()
	if kind.Kind == "" {
		kind = r.kindOf(obj)
	}
	// Counted even when dropped: the names of the events that follow do
	// not depend on the filter.
	r.n++
	n := r.n
	r.mu.Unlock()
	about := corev1.ObjectReference{
		Kind:            kind.Kind,
		APIVersion:      r.apiVersion(kind),
		Namespace:       m.GetNamespace(),
		Name:            m.GetName(),
		UID:             m.GetUID(),
		ResourceVersion: m.GetResourceVersion(),
	}
	source := corev1.EventSource{Component: r.Component}
	if r.spammed(spamKeyFor(&source, &about, eventType)) {
		return nil
	}
	now := metav1.NewTime(r.Clock.Now())
	ns := m.GetNamespace()
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	return &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name:      eventName(m.GetName(), now.UnixNano(), n),
			Namespace: ns,
		},
		InvolvedObject: about,
		Reason:         reason,
		Message:        message(messageFmt, args),
		Type:           eventType,
		Source:         source,
		FirstTimestamp: now,
		LastTimestamp:  now,
		Count:          1,
	}
}

// kindOf is the kind the scheme registers obj's type as, looked up once per
// type: cached objects carry no kind, and the scheme answers with a new
// slice each time. The caller holds mu.
func (r *APIRecorder) kindOf(obj runtime.Object) schema.GroupVersionKind {
	t := reflect.TypeOf(obj)
	if gvk, ok := r.kinds[t]; ok {
		return gvk
	}
	var gvk schema.GroupVersionKind
	if gvks, _, err := scheme.Scheme.ObjectKinds(obj); err == nil && len(gvks) > 0 {
		gvk = gvks[0]
	}
	if r.kinds == nil {
		r.kinds = map[reflect.Type]schema.GroupVersionKind{}
	}
	r.kinds[t] = gvk
	return gvk
}

// apiVersion is kind.GroupVersion().String() without building "apps/v1"
// again for every event about a ReplicaSet or a Deployment.
func (r *APIRecorder) apiVersion(kind schema.GroupVersionKind) string {
	gv := kind.GroupVersion()
	if gv.Group == "" {
		return gv.Version // String() allocates nothing for the core group
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.versions[gv]
	if !ok {
		s = gv.String()
		if r.versions == nil {
			r.versions = map[schema.GroupVersion]string{}
		}
		r.versions[gv] = s
	}
	return s
}

// eventName is fmt.Sprintf("%s.%x%04x", object, nanos, n&0xffff) — the
// object's name, the time and the recorder's counter — in one allocation:
// the scheduler names one event per pod it binds.
func eventName(object string, nanos int64, n uint64) string {
	const hex = "0123456789abcdef"
	var buf [128]byte
	b := append(buf[:0], object...)
	b = append(b, '.')
	b = strconv.AppendInt(b, nanos, 16)
	v := n & 0xffff
	b = append(b, hex[v>>12], hex[v>>8&0xf], hex[v>>4&0xf], hex[v&0xf])
	return string(b)
}

// message is fmt.Sprintf(format, args...), with the commonest format, a
// single "%s" of a string, taken as it is.
func message(format string, args []any) string {
	if format == "%s" && len(args) == 1 {
		if s, ok := args[0].(string); ok {
			return s
		}
	}
	return fmt.Sprintf(format, args...)
}

// spammed reports whether the spam filter drops an event with key k now,
// counting it against the object's burst.
func (r *APIRecorder) spammed(k spamKey) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.correlatorLocked().filtered(k)
}

// correlatorLocked is the recorder's correlator, made on first use with
// the event client it needs. The caller holds mu.
func (r *APIRecorder) correlatorLocked() *correlator {
	if r.correlator == nil {
		r.correlator = newCorrelator(r.Clock)
		r.events = NewNamespaced(func(ns string) corev1client.EventInterface { return r.Client.CoreV1().Events(ns) })
	}
	return r.correlator
}

// send is client-go's recordToSink for one event: correlate, then create a
// new event or patch the count of the one it repeats. Failures are dropped,
// as upstream drops events the server rejects.
func (r *APIRecorder) send(ev *corev1.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev, patch, err := r.correlatorLocked().correlate(ev)
	if err != nil {
		return
	}
	ctx := context.Background()
	events := r.events.In(ev.Namespace)
	var stored *corev1.Event
	if ev.Count > 1 {
		stored, err = events.Patch(ctx, ev.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	}
	if ev.Count <= 1 || apierrors.IsNotFound(err) {
		ev.ResourceVersion = ""
		if w, ok := events.(EventCreator); ok {
			// ev is this call's own; once stored it is what updateState
			// must read.
			if err = w.CreateOwned(ctx, ev, metav1.CreateOptions{}); err == nil {
				stored = ev
			}
		} else {
			stored, err = events.Create(ctx, ev, metav1.CreateOptions{})
		}
	}
	if err == nil {
		r.correlator.updateState(stored)
	}
}
