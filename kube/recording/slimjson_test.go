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

// TestSlimPodJSONIsJSONMarshals: the recorder's hand-written pod is
// json.Marshal's, byte for byte, for 500 random pods of every field a
// slim pod sets — random strings (quotes, HTML, control characters, any
// script), nils, empty and full lists, zero and set times — and a pod
// with any other field set is left to json.Marshal.
func TestSlimPodJSONIsJSONMarshals(t *testing.T) {
	fast := 0
	for seed := range int64(500) {
		f := randfill.NewWithSeed(seed).NilChance(0.3).NumElements(0, 3)
		var full corev1.Pod
		f.Fill(&full)
		if got, ok := appendSlimPod(nil, &full); ok {
			want, _ := json.Marshal(&full)
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d, a full pod taken as slim:\n got %s\nwant %s", seed, got, want)
			}
		}
		p := slimmed(&full)
		want, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendSlimPod(nil, p)
		if !ok {
			t.Fatalf("seed %d: a slim pod refused: %+v", seed, p)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d:\n got %s\nwant %s", seed, got, want)
		}
		fast++
	}
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
	for seed := range int64(500) {
		f := randfill.NewWithSeed(seed).NilChance(0.3).NumElements(0, 3)
		var e corev1.Event
		f.Fill(&e)
		if got, ok := appendSlimEvent(nil, &e); ok {
			want, _ := json.Marshal(&e)
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d, a full event taken as slim:\n got %s\nwant %s", seed, got, want)
			}
		}
		zeroOthers(&e.ObjectMeta, metaOthers)
		zeroOthers(&e, eventOthers)
		want, err := json.Marshal(&e)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendSlimEvent(nil, &e)
		if !ok {
			t.Fatalf("seed %d: a slim event refused: %+v", seed, e)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d:\n got %s\nwant %s", seed, got, want)
		}
	}
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
