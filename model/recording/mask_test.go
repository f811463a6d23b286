package recording

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestMaskEnvHidesEveryValueAndNothingElse: a pod's containers' and init
// containers' variables read Masked, their valueFrom references and names
// stay, and a label or annotation that happens to be called env is left
// alone; a pod with no env list comes back as the same bytes.
func TestMaskEnvHidesEveryValueAndNothingElse(t *testing.T) {
	p := corev1.Pod{}
	p.Labels = map[string]string{"env": "prod"}
	p.Spec.InitContainers = []corev1.Container{{Name: "init", Env: []corev1.EnvVar{{Name: "TOKEN", Value: `s3cr"et`}}}}
	p.Spec.Containers = []corev1.Container{{Name: "app", Env: []corev1.EnvVar{
		{Name: "DB_PASSWORD", Value: "hunter2"},
		{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}},
	}}}
	in, _ := json.Marshal(p)
	var got corev1.Pod
	if err := json.Unmarshal(MaskEnv(in), &got); err != nil {
		t.Fatalf("the masked pod does not decode: %v\n%s", err, MaskEnv(in))
	}
	want := p.DeepCopy()
	want.Spec.InitContainers[0].Env[0].Value = Masked
	want.Spec.Containers[0].Env[0].Value = Masked
	if w, g := mustMarshal(want), mustMarshal(&got); w != g {
		t.Errorf("masked:\n%s\nwant:\n%s", g, w)
	}
	none, _ := json.Marshal(corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app"}}}})
	if out := MaskEnv(none); &out[0] != &none[0] {
		t.Error("a pod without env was rewritten")
	}
}

// TestMaskEnvOfRandomObjects holds the one-pass masker to decoding the
// object and masking the tree, over seeded random objects with env lists
// at any depth, entries with and without values, and env members that are
// not lists.
func TestMaskEnvOfRandomObjects(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var value func(depth int) any
	value = func(depth int) any {
		switch n := r.IntN(6); {
		case n == 0 && depth < 4:
			m := map[string]any{}
			for range r.IntN(4) {
				m[[]string{"env", "value", "name", `e"nv`}[r.IntN(4)]] = value(depth + 1)
			}
			return m
		case n == 1 && depth < 4:
			var l []any
			for range r.IntN(3) {
				e := map[string]any{"name": "X"}
				if r.IntN(2) == 0 {
					e["value"] = value(depth + 1)
				}
				l = append(l, e)
			}
			return l
		case n == 2:
			return `va"l{ue}`
		case n == 3:
			return nil
		}
		return r.IntN(10)
	}
	for range 2000 {
		v := map[string]any{"env": value(1), "spec": value(0)}
		in, _ := json.Marshal(v)
		var tree any
		json.Unmarshal(in, &tree)
		maskTree(tree)
		want, _ := json.Marshal(tree)
		if !sameJSON(t, MaskEnv(in), want) {
			t.Fatalf("masked %s\nto %s\nwant %s", in, MaskEnv(in), want)
		}
	}
}

// maskTree is the masking done on a decoded tree: the oracle.
func maskTree(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if list, ok := x.([]any); ok && k == "env" {
				for _, e := range list {
					if e, ok := e.(map[string]any); ok {
						if _, has := e["value"]; has {
							e["value"] = Masked
						}
					}
				}
				continue
			}
			maskTree(x)
		}
	case []any:
		for _, x := range v {
			maskTree(x)
		}
	}
}

func mustMarshal(v any) string { b, _ := json.Marshal(v); return string(b) }

// BenchmarkMaskEnvAPod is the recorder's cost of masking a pod with five
// variables; decode is the decode-mask-encode it replaced.
func BenchmarkMaskEnvAPod(b *testing.B) {
	p := corev1.Pod{}
	p.Spec.Containers = []corev1.Container{{Name: "app", Image: "shop/web:v2"}}
	for i := range 5 {
		p.Spec.Containers[0].Env = append(p.Spec.Containers[0].Env, corev1.EnvVar{Name: "VAR" + string(rune('A'+i)), Value: "some value"})
	}
	in, _ := json.Marshal(p)
	b.Run("rollscope", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			MaskEnv(in)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var tree any
			json.Unmarshal(in, &tree)
			maskTree(tree)
			json.Marshal(tree)
		}
	})
}
