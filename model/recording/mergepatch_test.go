package recording

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// podVersions is one pod as a rollout records it: created, scheduled,
// started, ready, labelled, terminating.
func podVersions() [][]byte {
	p := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web-7d9c-abcde", Namespace: "shop", ResourceVersion: "100", Labels: map[string]string{"app": "web", "pod-template-hash": "7d9c"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "shop/web:v2",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending},
	}
	var out [][]byte
	add := func(change func()) {
		change()
		b, err := json.Marshal(p)
		if err != nil {
			panic(err)
		}
		out = append(out, b)
	}
	t0 := metav1.NewTime(time.Date(2026, 12, 3, 3, 12, 0, 0, time.UTC))
	add(func() {})
	add(func() {
		p.ResourceVersion, p.Spec.NodeName = "101", "node-3"
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: t0}}
	})
	add(func() {
		p.ResourceVersion, p.Status.Phase, p.Status.PodIP = "102", corev1.PodRunning, "10.0.3.7"
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "app", Image: "shop/web:v2", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: t0}}}}
	})
	add(func() {
		p.ResourceVersion = "103"
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0})
		p.Status.ContainerStatuses[0].Ready = true
	})
	add(func() {
		p.ResourceVersion = "104"
		p.Labels["canary"] = "yes"
		delete(p.Labels, "pod-template-hash")
	})
	add(func() {
		p.ResourceVersion, p.DeletionTimestamp = "105", &t0
		p.Labels = nil
		p.Status.PodIP = ""
	})
	return out
}

// TestMergePatchIsUpstreamsPatch: for every change of a pod through a
// rollout, and for members added, removed, nested, emptied and turned from
// objects into values, the patch says what json-patch's CreateMergePatch
// says, and applied to the old version gives the new one — a reader of a
// recording reads back what was recorded. (A merge patch cannot carry a
// null member: "lastProbeTime":null reads back absent, which Kubernetes
// decodes the same.)
func TestMergePatchIsUpstreamsPatch(t *testing.T) {
	pairs := [][2]string{
		{`{"a":1,"b":{"c":1,"d":[1,2]}}`, `{"a":1,"b":{"c":2,"d":[1,2]}}`},
		{`{"a":1,"b":{"c":1}}`, `{"a":1}`},
		{`{"a":1}`, `{"a":1,"b":{"c":{"d":"x"}}}`},
		{`{"a":{"b":1}}`, `{"a":[1]}`},
		{`{"a":{"b":1}}`, `{"a":{}}`},
		{`{"a":"x"}`, `{"a":{"b":"y"}}`},
		{`{"a":{"b":{"c":1,"e":2}}}`, `{"a":{"b":{"c":1}}}`},
		{`{"a":1}`, `{"a":1}`},
		{`{"quote\"d":1}`, `{"quote\"d":2}`},
	}
	v := podVersions()
	for i := 1; i < len(v); i++ {
		pairs = append(pairs, [2]string{string(v[i-1]), string(v[i])})
	}
	pairs = append(pairs, [2]string{string(v[0]), string(v[len(v)-1])})
	for _, p := range pairs {
		was, now := []byte(p[0]), []byte(p[1])
		got, ok := mergePatch(was, now)
		if !ok {
			t.Fatalf("no patch from %s to %s", was, now)
		}
		want, err := jsonpatch.CreateMergePatch(was, now)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, got, want) {
			t.Errorf("from %s\nto   %s\npatch %s\nupstream's %s", was, now, got, want)
		}
		applied, err := jsonpatch.MergePatch(was, got)
		if err != nil {
			t.Fatalf("the patch %s does not apply: %v", got, err)
		}
		if !sameJSON(t, dropNulls(t, applied), dropNulls(t, now)) {
			t.Errorf("from %s, patch %s reads back %s, want %s", was, got, applied, now)
		}
	}
	for _, notObjects := range [][2]string{{`[1]`, `{"a":1}`}, {`{"a":1}`, `null`}, {`{`, `{}`}} {
		if _, ok := mergePatch([]byte(notObjects[0]), []byte(notObjects[1])); ok {
			t.Errorf("a patch from %s to %s, which are not both objects", notObjects[0], notObjects[1])
		}
	}
}

// dropNulls is v without its null members, at any depth.
func dropNulls(t *testing.T, v []byte) []byte {
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		t.Fatal(err)
	}
	var drop func(any) any
	drop = func(x any) any {
		switch x := x.(type) {
		case map[string]any:
			for k, m := range x {
				if m == nil {
					delete(x, k)
				} else {
					x[k] = drop(m)
				}
			}
		case []any:
			for i := range x {
				x[i] = drop(x[i])
			}
		}
		return x
	}
	out, _ := json.Marshal(drop(x))
	return out
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// BenchmarkTellAPodChange is the recorder's cost of one pod's change (its
// readiness) beside the console: the patch from the version told before.
// upstream is json-patch's CreateMergePatch, which the recorder used.
func BenchmarkTellAPodChange(b *testing.B) {
	v := podVersions()
	was, now := v[2], v[3]
	b.Run("rollscope", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mergePatch(was, now)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			jsonpatch.CreateMergePatch(was, now)
		}
	})
}

// TestMergePatchOfRandomObjects holds the patch to upstream's over seeded
// random objects and random changes of them: values of every JSON type,
// strings with quotes, braces and escapes, nested objects and arrays.
func TestMergePatchOfRandomObjects(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", `q"uote`, "br{ace}", `back\slash`, "ü", "[x]", "c,d"}
	var value func(depth int) any
	object := func(depth int) map[string]any {
		m := map[string]any{}
		for range r.IntN(5) {
			m[words[r.IntN(len(words))]] = value(depth + 1)
		}
		return m
	}
	value = func(depth int) any {
		switch n := r.IntN(7); {
		case n == 0 && depth < 4:
			return object(depth)
		case n == 1 && depth < 4:
			return []any{value(depth + 1), value(depth + 1)}
		case n == 2:
			return words[r.IntN(len(words))]
		case n == 3:
			return r.Float64() * 100
		case n == 4:
			return r.IntN(2) == 0
		case n == 5:
			return nil
		}
		return r.IntN(1000)
	}
	for i := range 2000 {
		a := object(0)
		b := object(0)
		if i%2 == 0 { // mostly the same object, a few members changed
			b = map[string]any{}
			for k, v := range a {
				b[k] = v
			}
			b[words[r.IntN(len(words))]] = value(1)
			delete(b, words[r.IntN(len(words))])
		}
		was, _ := json.Marshal(a)
		now, _ := json.Marshal(b)
		got, ok := mergePatch(was, now)
		if !ok {
			t.Fatalf("no patch from %s to %s", was, now)
		}
		want, err := jsonpatch.CreateMergePatch(was, now)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, got, want) {
			t.Fatalf("from %s\nto   %s\npatch %s\nupstream's %s", was, now, got, want)
		}
	}
}

// TestApplyPatchIsUpstreamsMerge: a reader applying the patches on the
// bytes reads what json-patch's MergePatch reads, over seeded random
// objects and random patches — nulls deleting members, objects merging
// into objects and replacing values, new members' nulls dropped.
func TestApplyPatchIsUpstreamsMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	keys := []string{"a", "b", `q"k`, "d"}
	var value func(depth int, nulls bool) any
	value = func(depth int, nulls bool) any {
		switch n := r.IntN(6); {
		case n < 2 && depth < 4:
			m := map[string]any{}
			for range r.IntN(4) {
				m[keys[r.IntN(len(keys))]] = value(depth+1, nulls)
			}
			return m
		case n == 2:
			return []any{1, "x{"}
		case n == 3 && nulls:
			return nil
		case n == 4:
			return `s"}`
		}
		return r.IntN(10)
	}
	for range 3000 {
		doc, _ := json.Marshal(value(0, false))
		patch, _ := json.Marshal(value(0, true))
		if !isObject(doc) || !isObject(patch) {
			continue
		}
		got, ok := applyPatch(nil, doc, patch)
		if !ok {
			t.Fatalf("%s does not apply to %s", patch, doc)
		}
		want, err := jsonpatch.MergePatch(doc, patch)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, got, want) {
			t.Fatalf("%s applied to %s reads %s, want %s", patch, doc, got, want)
		}
	}
}
