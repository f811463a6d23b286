package eventpack

import (
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// stored is an event as the embedded API stores one of the scheduler's.
func stored() *corev1.Event {
	at := metav1.NewTime(time.Date(2026, 11, 25, 1, 2, 3, 0, time.UTC))
	return &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name:              "web-7d9f-abcde.187b1c2d3e4f0001",
			Namespace:         "default",
			UID:               "0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3",
			ResourceVersion:   "123456",
			CreationTimestamp: at,
		},
		InvolvedObject: corev1.ObjectReference{
			Kind:            "Pod",
			Namespace:       "default",
			Name:            "web-7d9f-abcde",
			UID:             "ffffffff-0000-4000-8000-123456789abc",
			APIVersion:      "v1",
			ResourceVersion: "99",
		},
		Reason:         "Scheduled",
		Message:        "Successfully assigned default/web-7d9f-abcde to node-1",
		Source:         corev1.EventSource{Component: "default-scheduler"},
		FirstTimestamp: at,
		LastTimestamp:  at,
		Count:          1,
		Type:           corev1.EventTypeNormal,
	}
}

func TestPackedGivesBackTheEvent(t *testing.T) {
	local := time.FixedZone("here", 3600)
	variants := map[string]func(e *corev1.Event){
		"as stored": func(*corev1.Event) {},
		"repeated": func(e *corev1.Event) {
			e.Count = 7
			e.LastTimestamp = metav1.NewTime(e.LastTimestamp.Add(90 * time.Second))
		},
		"no involved version": func(e *corev1.Event) { e.InvolvedObject.ResourceVersion = "" },
		"version zero":        func(e *corev1.Event) { e.InvolvedObject.ResourceVersion = "0" },
		"a day later":         func(e *corev1.Event) { e.LastTimestamp = metav1.NewTime(e.LastTimestamp.Add(24 * time.Hour)) },
		"created after":       func(e *corev1.Event) { e.CreationTimestamp = metav1.NewTime(e.CreationTimestamp.Add(time.Hour)) },
		"no times": func(e *corev1.Event) {
			e.CreationTimestamp, e.FirstTimestamp, e.LastTimestamp = metav1.Time{}, metav1.Time{}, metav1.Time{}
		},
		"in a zone": func(e *corev1.Event) {
			e.CreationTimestamp, e.FirstTimestamp, e.LastTimestamp = inZone(e.CreationTimestamp, local), inZone(e.FirstTimestamp, local), inZone(e.LastTimestamp, local)
		},
		"local": func(e *corev1.Event) {
			e.FirstTimestamp, e.LastTimestamp, e.CreationTimestamp = inZone(e.FirstTimestamp, time.Local), inZone(e.LastTimestamp, time.Local), inZone(e.CreationTimestamp, time.Local)
		},
		"everything shared": func(e *corev1.Event) {
			e.Kind, e.APIVersion = "Event", "v1"
			e.InvolvedObject.FieldPath = "spec.containers{app}"
			e.Source.Host = "node-1"
			e.ReportingController, e.ReportingInstance = "kubelet", "node-1"
		},
		"a node's": func(e *corev1.Event) {
			e.InvolvedObject.Kind, e.InvolvedObject.Namespace, e.InvolvedObject.Name, e.Name = "Node", "", "node-1", "node-1.187b"
		},
		"same name":     func(e *corev1.Event) { e.Name = e.InvolvedObject.Name },
		"empty message": func(e *corev1.Event) { e.Message = "" },
		"uid of zeros and f's": func(e *corev1.Event) {
			e.UID = "00000000-0000-0000-0000-000000000000"
			e.InvolvedObject.UID = "ffffffff-ffff-ffff-ffff-ffffffffffff"
		},
	}
	var p Packer
	for name, change := range variants {
		e := stored()
		change(e)
		want := e.DeepCopy()
		packed, ok := p.Pack(e)
		if !ok {
			t.Errorf("%s: not packed", name)
			continue
		}
		if got := packed.Event(e.Name); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: packed and read back:\n got %#v\nwant %#v", name, got, want)
		}
		if !reflect.DeepEqual(e, want) {
			t.Errorf("%s: packing changed the event", name)
		}
	}
}

func inZone(t metav1.Time, loc *time.Location) metav1.Time { return metav1.NewTime(t.In(loc)) }

// TestUnusualEventsAreNotPacked: every field a Packed cannot give back
// exactly leaves the event to be kept as it is.
func TestUnusualEventsAreNotPacked(t *testing.T) {
	one := int64(1)
	variants := map[string]func(e *corev1.Event){
		"generateName":   func(e *corev1.Event) { e.GenerateName = "x-" },
		"generation":     func(e *corev1.Event) { e.Generation = 2 },
		"labels":         func(e *corev1.Event) { e.Labels = map[string]string{} },
		"annotations":    func(e *corev1.Event) { e.Annotations = map[string]string{"a": "b"} },
		"owners":         func(e *corev1.Event) { e.OwnerReferences = []metav1.OwnerReference{} },
		"finalizers":     func(e *corev1.Event) { e.Finalizers = []string{"f"} },
		"managed fields": func(e *corev1.Event) { e.ManagedFields = []metav1.ManagedFieldsEntry{{}} },
		"being deleted":  func(e *corev1.Event) { e.DeletionTimestamp = &e.CreationTimestamp },
		"grace":          func(e *corev1.Event) { e.DeletionGracePeriodSeconds = &one },
		"eventTime":      func(e *corev1.Event) { e.EventTime = metav1.NewMicroTime(e.FirstTimestamp.Time) },
		"series":         func(e *corev1.Event) { e.Series = &corev1.EventSeries{Count: 2} },
		"action":         func(e *corev1.Event) { e.Action = "Binding" },
		"related":        func(e *corev1.Event) { e.Related = &corev1.ObjectReference{} },
		"fractions":      func(e *corev1.Event) { e.LastTimestamp = metav1.NewTime(e.LastTimestamp.Add(time.Millisecond)) },
		"monotonic":      func(e *corev1.Event) { e.FirstTimestamp = metav1.NewTime(time.Now().Truncate(0).Add(0)) },
		"mixed zones":    func(e *corev1.Event) { e.LastTimestamp = inZone(e.LastTimestamp, time.FixedZone("x", 60)) },
		"zero among zoned": func(e *corev1.Event) {
			e.CreationTimestamp = metav1.Time{}
			e.FirstTimestamp = inZone(e.FirstTimestamp, time.FixedZone("x", 60))
			e.LastTimestamp = e.FirstTimestamp
		},
		"padded version":        func(e *corev1.Event) { e.ResourceVersion = "0123" },
		"odd version":           func(e *corev1.Event) { e.InvolvedObject.ResourceVersion = "abc" },
		"largest version":       func(e *corev1.Event) { e.ResourceVersion = "18446744073709551615" },
		"no uid":                func(e *corev1.Event) { e.UID = "" },
		"uppercase uid":         func(e *corev1.Event) { e.InvolvedObject.UID = "FFFFFFFF-0000-4000-8000-123456789ABC" },
		"uid without dashes":    func(e *corev1.Event) { e.UID = "0a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3" },
		"name not the object's": func(e *corev1.Event) { e.InvolvedObject.Name = "other" },
		"created long before":   func(e *corev1.Event) { e.CreationTimestamp = metav1.NewTime(e.FirstTimestamp.AddDate(-70, 0, 0)) },
		"last long after":       func(e *corev1.Event) { e.LastTimestamp = metav1.NewTime(e.FirstTimestamp.AddDate(70, 0, 0)) },
	}
	var p Packer
	for name, change := range variants {
		e := stored()
		change(e)
		if _, ok := p.Pack(e); ok {
			t.Errorf("%s: packed, though a Packed cannot give it back", name)
		}
	}
}

// TestEventsShareTheirShape: the strings most events have in common are
// held once.
func TestEventsShareTheirShape(t *testing.T) {
	var p Packer
	a, _ := p.Pack(stored())
	e := stored()
	e.Name, e.InvolvedObject.Name, e.Message = "web-2.1", "web-2", "Successfully assigned default/web-2 to node-2"
	b, _ := p.Pack(e)
	e.Reason = "Pulled"
	c, _ := p.Pack(e)
	if a.shape != b.shape || a.shape == c.shape || len(p.shapes) != 2 {
		t.Errorf("shapes: a=%p b=%p c=%p, %d held; want a and b one, c another", a.shape, b.shape, c.shape, len(p.shapes))
	}
}

// TestEveryEventFieldIsKnown fails when a new Kubernetes version adds a
// field to Event, ObjectMeta or ObjectReference: Pack must then learn to
// keep it or to refuse events that set it.
func TestEveryEventFieldIsKnown(t *testing.T) {
	for typ, want := range map[reflect.Type]int{
		reflect.TypeFor[corev1.Event]():           16,
		reflect.TypeFor[metav1.ObjectMeta]():      15,
		reflect.TypeFor[corev1.ObjectReference](): 7,
		reflect.TypeFor[corev1.EventSource]():     2,
		reflect.TypeFor[metav1.TypeMeta]():        2,
	} {
		if got := typ.NumField(); got != want {
			t.Errorf("%v has %d fields, Pack knows %d", typ, got, want)
		}
	}
}

func TestPackingAStoredEventAllocatesNothing(t *testing.T) {
	var p Packer
	e := stored()
	p.Pack(e)
	if n := testing.AllocsPerRun(100, func() { p.Pack(e) }); n != 0 {
		t.Errorf("Pack allocates %v times an event", n)
	}
}
