package recording

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// marshal is json.Marshal(obj), written by hand for pods and events as
// the console keeps them (kube/watch's slim pod: names, owner, containers'
// images, phase, conditions, container states; its slim event). They are
// nearly all of what a rollout records, and json.Marshal visits each of a
// pod's ~150 fields by reflection to find the 30 a slim pod sets: it was
// most of the recorder's cost. An object with any other field set goes to
// json.Marshal; TestSlimPodJSONIsJSONMarshals and
// TestSlimEventJSONIsJSONMarshals hold the two equal byte for byte.
func marshal(obj runtime.Object) ([]byte, error) {
	switch o := obj.(type) {
	case *corev1.Pod:
		if data, ok := appendSlimPod(make([]byte, 0, 1024), o); ok {
			return data, nil
		}
	case *corev1.Event:
		// Events are most of the rest, slimmed as pods are.
		if data, ok := appendSlimEvent(make([]byte, 0, 512), o); ok {
			return data, nil
		}
	}
	return json.Marshal(obj)
}

// The fields of each type a slim pod may set; any other field set sends
// the pod to json.Marshal. Fields Kubernetes adds later are "other" too.
var (
	metaOthers      = othersOf(metav1.ObjectMeta{}, "Name", "Namespace", "UID", "ResourceVersion", "CreationTimestamp", "DeletionTimestamp", "DeletionGracePeriodSeconds", "Labels", "OwnerReferences")
	specOthers      = othersOf(corev1.PodSpec{}, "InitContainers", "Containers", "NodeName")
	containerOthers = othersOf(corev1.Container{}, "Name", "Image", "RestartPolicy")
	statusOthers    = othersOf(corev1.PodStatus{}, "Phase", "Conditions", "Message", "Reason", "PodIP", "StartTime", "InitContainerStatuses", "ContainerStatuses", "QOSClass")
	csOthers        = othersOf(corev1.ContainerStatus{}, "Name", "State", "LastTerminationState", "Ready", "RestartCount", "Image", "ImageID", "ContainerID", "Started")
	eventOthers     = othersOf(corev1.Event{}, "TypeMeta", "ObjectMeta", "InvolvedObject", "Reason", "Message", "Source", "FirstTimestamp", "LastTimestamp", "Count", "Type", "EventTime", "Series", "ReportingController", "ReportingInstance")
)

// others are the bytes of a struct's fields that a slim pod leaves zero:
// spans of (offset, size), adjacent fields joined, padding left out.
type others []span

type span struct{ off, n uintptr }

// othersOf is the fields of v not named.
func othersOf(v any, kept ...string) others {
	t := reflect.TypeOf(v)
	var o others
	for i := range t.NumField() {
		f := t.Field(i)
		if slices.Contains(kept, f.Name) || f.Type.Size() == 0 {
			continue
		}
		if n := len(o); n > 0 && o[n-1].off+o[n-1].n == f.Offset {
			o[n-1].n += f.Type.Size()
			continue
		}
		o = append(o, span{f.Offset, f.Type.Size()})
	}
	return o
}

// bare reports whether every other field of the struct at p is zero: a
// field is its zero value exactly when its bytes are all zero (there are
// no floats here, whose -0 would differ). This is the guard of every pod
// recorded, so it compares memory rather than visiting fields by
// reflection, which cost as much as the encoding it guards.
func bare[T any](p *T, o others) bool {
	for _, s := range o {
		if !bytes.Equal(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(p), s.off)), s.n), zeros[:s.n]) {
			return false
		}
	}
	return true
}

// zeros is longer than any struct guarded.
var zeros = make([]byte, 4096)

func slimShaped(p *corev1.Pod) bool {
	if !bare(&p.ObjectMeta, metaOthers) || !bare(&p.Spec, specOthers) || !bare(&p.Status, statusOthers) {
		return false
	}
	for _, cs := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			if !bare(&cs[i], containerOthers) {
				return false
			}
		}
	}
	for _, ss := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for i := range ss {
			if !bare(&ss[i], csOthers) {
				return false
			}
		}
	}
	return true
}

// appendSlimPod appends p as json.Marshal writes it, in its fields' order
// and with their tags' omissions; ok is false when p is not slim-shaped.
func appendSlimPod(b []byte, p *corev1.Pod) ([]byte, bool) {
	if !slimShaped(p) {
		return b, false
	}
	w := fields{b: b}
	top := w.object(&p.TypeMeta, &p.ObjectMeta)
	w.key("spec")
	w.spec(&p.Spec)
	w.key("status")
	w.status(&p.Status)
	w.close(top)
	return w.b, true
}

// fields appends objects' members, a comma before each but an object's
// first.
type fields struct {
	b    []byte
	more bool
}

// open starts an object (close ends it with what open returned) or an
// array's element list (next separates its elements).
func (w *fields) open() bool {
	was := w.more
	w.b, w.more = append(w.b, '{'), false
	return was
}

// object opens an object of the Kubernetes API: its kind, apiVersion
// (inline, omitempty) and metadata.
func (w *fields) object(t *metav1.TypeMeta, m *metav1.ObjectMeta) bool {
	top := w.open()
	w.str("kind", t.Kind)
	w.str("apiVersion", t.APIVersion)
	w.key("metadata")
	w.meta(m)
	return top
}

func (w *fields) close(was bool) { w.b, w.more = append(w.b, '}'), was }

func (w *fields) next(i int) {
	if i > 0 {
		w.b = append(w.b, ',')
	}
}

func (w *fields) key(k string) {
	if w.more {
		w.b = append(w.b, ',')
	}
	w.more = true
	w.b = append(append(append(w.b, '"'), k...), `":`...)
}

// str writes an omitempty string; strAlways one without omitempty.
func (w *fields) str(k, v string) {
	if v != "" {
		w.strAlways(k, v)
	}
}

func (w *fields) strAlways(k, v string) {
	w.key(k)
	w.b = appendString(w.b, v)
}

func (w *fields) int(k string, v int64) {
	if v != 0 {
		w.intAlways(k, v)
	}
}

func (w *fields) intAlways(k string, v int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

func (w *fields) boolPtr(k string, v *bool) {
	if v != nil {
		w.boolAlways(k, *v)
	}
}

func (w *fields) boolAlways(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

// microTime writes a metav1.MicroTime as its MarshalJSON does.
func (w *fields) microTime(k string, t metav1.MicroTime) {
	w.key(k)
	if t.IsZero() {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(t.UTC().AppendFormat(append(w.b, '"'), metav1.RFC3339Micro), '"')
}

// time writes a metav1.Time as its MarshalJSON does: null when zero.
func (w *fields) time(k string, t metav1.Time) {
	w.key(k)
	if t.IsZero() {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(t.UTC().AppendFormat(append(w.b, '"'), time.RFC3339), '"')
}

func (w *fields) meta(m *metav1.ObjectMeta) {
	o := w.open()
	w.str("name", m.Name)
	w.str("namespace", m.Namespace)
	w.str("uid", string(m.UID))
	w.str("resourceVersion", m.ResourceVersion)
	if !m.CreationTimestamp.IsZero() { // omitzero
		w.time("creationTimestamp", m.CreationTimestamp)
	}
	if m.DeletionTimestamp != nil {
		w.time("deletionTimestamp", *m.DeletionTimestamp)
	}
	if m.DeletionGracePeriodSeconds != nil {
		w.intAlways("deletionGracePeriodSeconds", *m.DeletionGracePeriodSeconds)
	}
	if len(m.Labels) > 0 {
		w.key("labels")
		w.labels(m.Labels)
	}
	if len(m.OwnerReferences) > 0 {
		w.key("ownerReferences")
		w.b = append(w.b, '[')
		for i := range m.OwnerReferences {
			r := &m.OwnerReferences[i]
			w.next(i)
			o := w.open()
			w.strAlways("apiVersion", r.APIVersion)
			w.strAlways("kind", r.Kind)
			w.strAlways("name", r.Name)
			w.strAlways("uid", string(r.UID))
			w.boolPtr("controller", r.Controller)
			w.boolPtr("blockOwnerDeletion", r.BlockOwnerDeletion)
			w.close(o)
		}
		w.b = append(w.b, ']')
	}
	w.close(o)
}

// labels is a map as json.Marshal writes one: keys sorted.
func (w *fields) labels(m map[string]string) {
	var buf [16]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.b = append(w.b, '{')
	for i, k := range keys {
		w.next(i)
		w.b = append(appendString(w.b, k), ':')
		w.b = appendString(w.b, m[k])
	}
	w.b = append(w.b, '}')
}

func (w *fields) spec(s *corev1.PodSpec) {
	o := w.open()
	if len(s.InitContainers) > 0 {
		w.key("initContainers")
		w.containers(s.InitContainers)
	}
	w.key("containers")
	if s.Containers == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.containers(s.Containers)
	}
	w.str("nodeName", s.NodeName)
	w.close(o)
}

func (w *fields) containers(cs []corev1.Container) {
	w.b = append(w.b, '[')
	for i := range cs {
		c := &cs[i]
		w.next(i)
		o := w.open()
		w.strAlways("name", c.Name)
		w.str("image", c.Image)
		w.key("resources")
		w.b = append(w.b, "{}"...)
		if c.RestartPolicy != nil {
			w.strAlways("restartPolicy", string(*c.RestartPolicy))
		}
		w.close(o)
	}
	w.b = append(w.b, ']')
}

func (w *fields) status(s *corev1.PodStatus) {
	o := w.open()
	w.str("phase", string(s.Phase))
	if len(s.Conditions) > 0 {
		w.key("conditions")
		w.b = append(w.b, '[')
		for i := range s.Conditions {
			c := &s.Conditions[i]
			w.next(i)
			o := w.open()
			w.strAlways("type", string(c.Type))
			w.int("observedGeneration", c.ObservedGeneration)
			w.strAlways("status", string(c.Status))
			w.time("lastProbeTime", c.LastProbeTime)
			w.time("lastTransitionTime", c.LastTransitionTime)
			w.str("reason", c.Reason)
			w.str("message", c.Message)
			w.close(o)
		}
		w.b = append(w.b, ']')
	}
	w.str("message", s.Message)
	w.str("reason", s.Reason)
	w.str("podIP", s.PodIP)
	if s.StartTime != nil {
		w.time("startTime", *s.StartTime)
	}
	w.statuses("initContainerStatuses", s.InitContainerStatuses)
	w.statuses("containerStatuses", s.ContainerStatuses)
	w.str("qosClass", string(s.QOSClass))
	w.close(o)
}

func (w *fields) statuses(k string, ss []corev1.ContainerStatus) {
	if len(ss) == 0 {
		return
	}
	w.key(k)
	w.b = append(w.b, '[')
	for i := range ss {
		c := &ss[i]
		w.next(i)
		o := w.open()
		w.strAlways("name", c.Name)
		w.key("state")
		w.state(&c.State)
		w.key("lastState")
		w.state(&c.LastTerminationState)
		w.boolAlways("ready", c.Ready)
		w.intAlways("restartCount", int64(c.RestartCount))
		w.strAlways("image", c.Image)
		w.strAlways("imageID", c.ImageID)
		w.str("containerID", c.ContainerID)
		w.boolPtr("started", c.Started)
		w.close(o)
	}
	w.b = append(w.b, ']')
}

func (w *fields) state(s *corev1.ContainerState) {
	o := w.open()
	if r := s.Waiting; r != nil {
		w.key("waiting")
		o := w.open()
		w.str("reason", r.Reason)
		w.str("message", r.Message)
		w.close(o)
	}
	if r := s.Running; r != nil {
		w.key("running")
		o := w.open()
		w.time("startedAt", r.StartedAt)
		w.close(o)
	}
	if t := s.Terminated; t != nil {
		w.key("terminated")
		o := w.open()
		w.intAlways("exitCode", int64(t.ExitCode))
		w.int("signal", int64(t.Signal))
		w.str("reason", t.Reason)
		w.str("message", t.Message)
		w.time("startedAt", t.StartedAt)
		w.time("finishedAt", t.FinishedAt)
		w.str("containerID", t.ContainerID)
		w.close(o)
	}
	w.close(o)
}

// appendSlimEvent appends e as json.Marshal writes it; ok is false when e
// carries more than kube/watch's slim event (its object's name, words,
// times, count) and an event's reporting fields.
func appendSlimEvent(b []byte, e *corev1.Event) ([]byte, bool) {
	if !bare(&e.ObjectMeta, metaOthers) || !bare(e, eventOthers) {
		return b, false
	}
	w := fields{b: b}
	top := w.object(&e.TypeMeta, &e.ObjectMeta)
	w.key("involvedObject")
	o := w.open()
	r := &e.InvolvedObject
	w.str("kind", r.Kind)
	w.str("namespace", r.Namespace)
	w.str("name", r.Name)
	w.str("uid", string(r.UID))
	w.str("apiVersion", r.APIVersion)
	w.str("resourceVersion", r.ResourceVersion)
	w.str("fieldPath", r.FieldPath)
	w.close(o)
	w.str("reason", e.Reason)
	w.str("message", e.Message)
	w.key("source")
	o = w.open()
	w.str("component", e.Source.Component)
	w.str("host", e.Source.Host)
	w.close(o)
	w.time("firstTimestamp", e.FirstTimestamp)
	w.time("lastTimestamp", e.LastTimestamp)
	w.int("count", int64(e.Count))
	w.str("type", e.Type)
	w.microTime("eventTime", e.EventTime)
	if s := e.Series; s != nil {
		w.key("series")
		o := w.open()
		w.int("count", int64(s.Count))
		w.microTime("lastObservedTime", s.LastObservedTime)
		w.close(o)
	}
	w.strAlways("reportingComponent", e.ReportingController)
	w.strAlways("reportingInstance", e.ReportingInstance)
	w.close(top)
	return w.b, true
}
