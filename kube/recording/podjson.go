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

// marshal is json.Marshal(obj), written by hand for a pod as the console
// keeps it (kube/watch's slim pod: names, owner, containers' images,
// phase, conditions, container states). Pods are three quarters of what a
// rollout records, and json.Marshal visits each of a pod's ~150 fields by
// reflection to find the 30 a slim pod sets: it was most of the
// recorder's cost. A pod with any other field set goes to json.Marshal;
// TestSlimPodJSONIsJSONMarshals holds the two equal byte for byte.
func marshal(obj runtime.Object) ([]byte, error) {
	if p, ok := obj.(*corev1.Pod); ok {
		if data, ok := appendSlimPod(make([]byte, 0, 1024), p); ok {
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
	b = append(b, '{')
	w := fields{b: b}
	w.str("kind", p.Kind)
	w.str("apiVersion", p.APIVersion)
	w.key("metadata")
	w.meta(&p.ObjectMeta)
	w.key("spec")
	w.spec(&p.Spec)
	w.key("status")
	w.status(&p.Status)
	return append(w.b, '}'), true
}

// fields appends an object's members, a comma before each but its first.
type fields struct {
	b    []byte
	more bool
}

func (w *fields) key(k string) {
	if w.more {
		w.b = append(w.b, ',')
	}
	w.more = true
	w.b = append(append(append(w.b, '"'), k...), `":`...)
}

// object writes a nested object's members with f.
func (w *fields) object(f func(*fields)) {
	in := fields{b: append(w.b, '{')}
	f(&in)
	w.b = append(in.b, '}')
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
		w.key(k)
		w.b = strconv.AppendInt(w.b, v, 10)
	}
}

func (w *fields) boolPtr(k string, v *bool) {
	if v != nil {
		w.key(k)
		w.b = strconv.AppendBool(w.b, *v)
	}
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
	w.object(func(w *fields) {
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
			w.key("deletionGracePeriodSeconds")
			w.b = strconv.AppendInt(w.b, *m.DeletionGracePeriodSeconds, 10)
		}
		if len(m.Labels) > 0 {
			w.key("labels")
			w.labels(m.Labels)
		}
		if len(m.OwnerReferences) > 0 {
			w.key("ownerReferences")
			w.array(len(m.OwnerReferences), func(i int) {
				r := &m.OwnerReferences[i]
				w.object(func(w *fields) {
					w.strAlways("apiVersion", r.APIVersion)
					w.strAlways("kind", r.Kind)
					w.strAlways("name", r.Name)
					w.strAlways("uid", string(r.UID))
					w.boolPtr("controller", r.Controller)
					w.boolPtr("blockOwnerDeletion", r.BlockOwnerDeletion)
				})
			})
		}
	})
}

// labels is a map as json.Marshal writes one: keys sorted.
func (w *fields) labels(m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.b = append(w.b, '{')
	for i, k := range keys {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = append(appendString(w.b, k), ':')
		w.b = appendString(w.b, m[k])
	}
	w.b = append(w.b, '}')
}

// array writes n elements with each, which appends to w.b.
func (w *fields) array(n int, each func(i int)) {
	w.b = append(w.b, '[')
	for i := range n {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		each(i)
	}
	w.b = append(w.b, ']')
}

func (w *fields) spec(s *corev1.PodSpec) {
	containers := func(w *fields, cs []corev1.Container) {
		w.array(len(cs), func(i int) {
			c := &cs[i]
			w.object(func(w *fields) {
				w.strAlways("name", c.Name)
				w.str("image", c.Image)
				w.key("resources")
				w.b = append(w.b, "{}"...)
				if c.RestartPolicy != nil {
					w.strAlways("restartPolicy", string(*c.RestartPolicy))
				}
			})
		})
	}
	w.object(func(w *fields) {
		if len(s.InitContainers) > 0 {
			w.key("initContainers")
			containers(w, s.InitContainers)
		}
		w.key("containers")
		if s.Containers == nil {
			w.b = append(w.b, "null"...)
		} else {
			containers(w, s.Containers)
		}
		w.str("nodeName", s.NodeName)
	})
}

func (w *fields) status(s *corev1.PodStatus) {
	statuses := func(w *fields, k string, ss []corev1.ContainerStatus) {
		if len(ss) == 0 {
			return
		}
		w.key(k)
		w.array(len(ss), func(i int) {
			c := &ss[i]
			w.object(func(w *fields) {
				w.strAlways("name", c.Name)
				w.key("state")
				w.state(&c.State)
				w.key("lastState")
				w.state(&c.LastTerminationState)
				w.key("ready")
				w.b = strconv.AppendBool(w.b, c.Ready)
				w.key("restartCount")
				w.b = strconv.AppendInt(w.b, int64(c.RestartCount), 10)
				w.strAlways("image", c.Image)
				w.strAlways("imageID", c.ImageID)
				w.str("containerID", c.ContainerID)
				w.boolPtr("started", c.Started)
			})
		})
	}
	w.object(func(w *fields) {
		w.str("phase", string(s.Phase))
		if len(s.Conditions) > 0 {
			w.key("conditions")
			w.array(len(s.Conditions), func(i int) {
				c := &s.Conditions[i]
				w.object(func(w *fields) {
					w.strAlways("type", string(c.Type))
					w.int("observedGeneration", c.ObservedGeneration)
					w.strAlways("status", string(c.Status))
					w.time("lastProbeTime", c.LastProbeTime)
					w.time("lastTransitionTime", c.LastTransitionTime)
					w.str("reason", c.Reason)
					w.str("message", c.Message)
				})
			})
		}
		w.str("message", s.Message)
		w.str("reason", s.Reason)
		w.str("podIP", s.PodIP)
		if s.StartTime != nil {
			w.time("startTime", *s.StartTime)
		}
		statuses(w, "initContainerStatuses", s.InitContainerStatuses)
		statuses(w, "containerStatuses", s.ContainerStatuses)
		w.str("qosClass", string(s.QOSClass))
	})
}

func (w *fields) state(s *corev1.ContainerState) {
	w.object(func(w *fields) {
		if r := s.Waiting; r != nil {
			w.key("waiting")
			w.object(func(w *fields) {
				w.str("reason", r.Reason)
				w.str("message", r.Message)
			})
		}
		if r := s.Running; r != nil {
			w.key("running")
			w.object(func(w *fields) { w.time("startedAt", r.StartedAt) })
		}
		if t := s.Terminated; t != nil {
			w.key("terminated")
			w.object(func(w *fields) {
				w.key("exitCode")
				w.b = strconv.AppendInt(w.b, int64(t.ExitCode), 10)
				w.int("signal", int64(t.Signal))
				w.str("reason", t.Reason)
				w.str("message", t.Message)
				w.time("startedAt", t.StartedAt)
				w.time("finishedAt", t.FinishedAt)
				w.str("containerID", t.ContainerID)
			})
		}
	})
}
