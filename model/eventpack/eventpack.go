// Package eventpack keeps a stored Event small: the embedded API and the
// runner's event cache hold every event of a run (upstream keeps them an
// hour), 200,000 of them in a 100,000-replica rollout. A corev1.Event is a
// 600-byte struct plus its name, message, UID and resourceVersion strings;
// a Packed is 96 bytes with two pointers — its message and the Shape it
// shares with every event of the same kind of object, reason, type and
// source — and gives back the very same Event when read. Its holder keys it
// by the event's name, so it does not hold the name again.
//
// Only events of the form the API server stores for rollscope's recorders
// are packed (no labels, annotations, owners, series or related object;
// whole-second times; a UID in the usual form; the involved object's name
// a prefix of the event's); any other event is kept as it is by the caller.
package eventpack

import (
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// Shape is what many events share: all of an event's strings but its name,
// message and UIDs, and the location its times are read in.
type Shape struct {
	typeMeta            metav1.TypeMeta
	namespace           string
	involvedKind        string
	involvedAPIVersion  string
	involvedNamespace   string
	fieldPath           string
	reason, typ         string
	component, host     string
	reportingController string
	reportingInstance   string
	loc                 *time.Location
}

// Packed is one stored event, packed, without its name. Its zero value is
// no event.
type Packed struct {
	shape        *Shape
	message      string
	uid          [16]byte
	involvedUID  [16]byte
	rv           uint64 // resourceVersion + 1; 0 for none
	involvedRV   uint64 // likewise
	created      int64  // Unix seconds
	first, last  int32  // seconds after created
	count        int32
	involvedName int32 // the involved object's name is the event's name[:involvedName]
}

// Packer packs events, sharing one Shape among the events that have the
// same. It is not safe for concurrent use.
type Packer struct {
	shapes map[Shape]*Shape
}

// Pack returns e packed, or false when e is not of the form a Packed holds
// (the caller then keeps e itself). e is not retained.
func (p *Packer) Pack(e *corev1.Event) (Packed, bool) {
	m := &e.ObjectMeta
	if m.GenerateName != "" || m.SelfLink != "" || m.Generation != 0 ||
		m.DeletionTimestamp != nil || m.DeletionGracePeriodSeconds != nil ||
		m.Labels != nil || m.Annotations != nil || m.OwnerReferences != nil ||
		m.Finalizers != nil || m.ManagedFields != nil ||
		e.EventTime != (metav1.MicroTime{}) || e.Series != nil || e.Action != "" || e.Related != nil ||
		!strings.HasPrefix(m.Name, e.InvolvedObject.Name) {
		return Packed{}, false
	}
	loc := e.FirstTimestamp.Location()
	created, ok1 := stamp(m.CreationTimestamp, loc)
	first, ok2 := stamp(e.FirstTimestamp, loc)
	last, ok3 := stamp(e.LastTimestamp, loc)
	first, last = first-created, last-created
	ok3 = ok3 && int64(int32(first)) == first && int64(int32(last)) == last
	rv, ok4 := version(m.ResourceVersion)
	involvedRV, ok5 := version(e.InvolvedObject.ResourceVersion)
	uid, ok6 := model.ParseUID(m.UID)
	involvedUID, ok7 := model.ParseUID(e.InvolvedObject.UID)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) {
		return Packed{}, false
	}
	return Packed{
		shape: p.shape(&Shape{
			typeMeta:            e.TypeMeta,
			namespace:           m.Namespace,
			involvedKind:        e.InvolvedObject.Kind,
			involvedAPIVersion:  e.InvolvedObject.APIVersion,
			involvedNamespace:   e.InvolvedObject.Namespace,
			fieldPath:           e.InvolvedObject.FieldPath,
			reason:              e.Reason,
			typ:                 e.Type,
			component:           e.Source.Component,
			host:                e.Source.Host,
			reportingController: e.ReportingController,
			reportingInstance:   e.ReportingInstance,
			loc:                 loc,
		}),
		message:      e.Message,
		uid:          uid,
		involvedUID:  involvedUID,
		rv:           rv,
		involvedRV:   involvedRV,
		created:      created,
		first:        int32(first),
		last:         int32(last),
		count:        e.Count,
		involvedName: int32(len(e.InvolvedObject.Name)),
	}, true
}

// shape returns the shared Shape equal to *s (s itself is not kept, so a
// Shape already held costs no allocation).
func (p *Packer) shape(s *Shape) *Shape {
	if sh, ok := p.shapes[*s]; ok {
		return sh
	}
	if p.shapes == nil {
		p.shapes = map[Shape]*Shape{}
	}
	sh := new(Shape)
	*sh = *s
	p.shapes[*sh] = sh
	return sh
}

// Valid reports whether p holds an event.
func (p *Packed) Valid() bool { return p.shape != nil }

// Event returns a new Event equal, field for field, to the one packed
// under name.
func (p *Packed) Event(name string) *corev1.Event {
	s := p.shape
	return &corev1.Event{
		TypeMeta: s.typeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name:              name,
			Namespace:         s.namespace,
			UID:               model.FormatUID(p.uid),
			ResourceVersion:   formatVersion(p.rv),
			CreationTimestamp: at(p.created, s.loc),
		},
		InvolvedObject: corev1.ObjectReference{
			Kind:            s.involvedKind,
			Namespace:       s.involvedNamespace,
			Name:            name[:p.involvedName],
			UID:             model.FormatUID(p.involvedUID),
			APIVersion:      s.involvedAPIVersion,
			ResourceVersion: formatVersion(p.involvedRV),
			FieldPath:       s.fieldPath,
		},
		Reason:              s.reason,
		Message:             p.message,
		Source:              corev1.EventSource{Component: s.component, Host: s.host},
		FirstTimestamp:      at(p.created+int64(p.first), s.loc),
		LastTimestamp:       at(p.created+int64(p.last), s.loc),
		Count:               p.count,
		Type:                s.typ,
		ReportingController: s.reportingController,
		ReportingInstance:   s.reportingInstance,
	}
}

// stamp is t in Unix seconds, when at gives back t exactly: whole seconds,
// no monotonic reading, read in loc (a zero time is read in UTC, so an
// event whose other times are not cannot have one).
func stamp(t metav1.Time, loc *time.Location) (int64, bool) {
	s := t.Unix()
	return s, at(s, loc) == t
}

func at(s int64, loc *time.Location) metav1.Time {
	return metav1.Time{Time: time.Unix(s, 0).In(loc)}
}

// version is a resourceVersion in its usual decimal form, plus one (0 for
// none), when formatVersion gives it back exactly.
func version(s string) (uint64, bool) {
	if s == "" {
		return 0, true
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == ^uint64(0) {
		return 0, false
	}
	return v + 1, true
}

func formatVersion(v uint64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatUint(v-1, 10)
}
