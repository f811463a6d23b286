package recording

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/randfill"
)

// zeroOthers clears, in the struct v points to, the fields o covers:
// what is left is what a slim pod may set.
func zeroOthers[T any](v *T, o others) {
	s := reflect.ValueOf(v).Elem()
	for i := range s.NumField() {
		f := s.Type().Field(i)
		for _, sp := range o {
			if f.Offset >= sp.off && f.Offset < sp.off+sp.n {
				s.Field(i).SetZero()
			}
		}
	}
}

func slimmed(p *corev1.Pod) *corev1.Pod {
	zeroOthers(&p.ObjectMeta, metaOthers)
	zeroOthers(&p.Spec, specOthers)
	zeroOthers(&p.Status, statusOthers)
	for _, cs := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			zeroOthers(&cs[i], containerOthers)
		}
	}
	for _, ss := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for i := range ss {
			zeroOthers(&ss[i], csOthers)
		}
	}
	return p
}

// heldToJSONMarshal fills a T at random for each of 500 seeds and holds
// write to json.Marshal: a full T written by hand must be json.Marshal's,
// and the T slimmed must be written by hand, byte for byte json.Marshal's.
func heldToJSONMarshal[T any](t *testing.T, slim func(*T), write func([]byte, *T) ([]byte, bool)) {
	t.Helper()
	for seed := range int64(500) {
		f := randfill.NewWithSeed(seed).NilChance(0.3).NumElements(0, 3)
		var v T
		f.Fill(&v)
		if got, ok := write(nil, &v); ok {
			want, _ := json.Marshal(&v)
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d, a full object taken as slim:\n got %s\nwant %s", seed, got, want)
			}
		}
		slim(&v)
		want, err := json.Marshal(&v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := write(nil, &v)
		if !ok {
			t.Fatalf("seed %d: a slim object refused: %+v", seed, v)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d:\n got %s\nwant %s", seed, got, want)
		}
	}
}

// TestSlimPodJSONIsJSONMarshals: the recorder's hand-written pod is
// json.Marshal's, byte for byte, for 500 random pods of every field a
// slim pod sets — random strings (quotes, HTML, control characters, any
// script), nils, empty and full lists, zero and set times — and a pod
// with any other field set is left to json.Marshal.
func TestSlimPodJSONIsJSONMarshals(t *testing.T) {
	heldToJSONMarshal(t, func(p *corev1.Pod) { slimmed(p) }, appendSlimPod)
	var p corev1.Pod
	for _, set := range []func(){
		func() { p.Annotations = map[string]string{"a": "b"} },
		func() { p.Spec.Volumes = []corev1.Volume{{Name: "v"}} },
		func() { p.Spec.Containers = []corev1.Container{{Name: "c", Env: []corev1.EnvVar{{Name: "E"}}}} },
		func() { p.Status.HostIP = "10.0.0.1" },
		func() {
			p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c", VolumeMounts: []corev1.VolumeMountStatus{{Name: "v"}}}}
		},
	} {
		p = corev1.Pod{}
		set()
		if _, ok := appendSlimPod(nil, &p); ok {
			t.Errorf("a pod with more than a slim pod's fields was written by hand: %+v", p)
		}
	}
}

// TestSlimEventJSONIsJSONMarshals: the same for events.
func TestSlimEventJSONIsJSONMarshals(t *testing.T) {
	heldToJSONMarshal(t, func(e *corev1.Event) {
		zeroOthers(&e.ObjectMeta, metaOthers)
		zeroOthers(e, eventOthers)
	}, appendSlimEvent)
	if _, ok := appendSlimEvent(nil, &corev1.Event{Action: "Binding"}); ok {
		t.Error("an event with an action was written by hand")
	}
}

func BenchmarkMarshalAPod(b *testing.B) {
	p := pod(2, 1, 3, t0)
	b.Run("json.Marshal", func(b *testing.B) {
		for b.Loop() {
			json.Marshal(p)
		}
	})
	b.Run("recorder", func(b *testing.B) {
		for b.Loop() {
			marshal(p)
		}
	})
}
