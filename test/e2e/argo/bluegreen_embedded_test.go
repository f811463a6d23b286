package argo

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model/argo"
	"rollscope/test/e2e/e2etest"
)

// bgSequence reads what a blue/green Rollout's run changed, in order: a
// ReplicaSet's spec.replicas ("v2=3", named by its image tag), a Service's
// selected pod-template hash ("active→v2"), and the phase and message the
// controller wrote ("Paused: BlueGreenPause").
type bgSequence struct {
	seq      []string
	replicas map[string]int32
	selects  map[string]string
	tags     map[string]string
	phase    string
}

func newBGSequence() *bgSequence {
	return &bgSequence{replicas: map[string]int32{}, selects: map[string]string{}, tags: map[string]string{}}
}

func (q *bgSequence) observe(obj runtime.Object) {
	switch o := obj.(type) {
	case *appsv1.ReplicaSet:
		img := o.Spec.Template.Spec.Containers[0].Image
		tag := img[strings.LastIndex(img, ":")+1:]
		q.tags[o.Labels[podHashLabel]] = tag
		n := int32(0)
		if o.Spec.Replicas != nil {
			n = *o.Spec.Replicas
		}
		if old, seen := q.replicas[tag]; !seen || old != n {
			q.replicas[tag] = n
			q.seq = append(q.seq, fmt.Sprintf("%s=%d", tag, n))
		}
	case *corev1.Service:
		if h := o.Spec.Selector[podHashLabel]; h != q.selects[o.Name] {
			q.selects[o.Name] = h
			tag := q.tags[h]
			if tag == "" {
				tag = h
			}
			q.seq = append(q.seq, fmt.Sprintf("%s→%s", strings.TrimPrefix(o.Name, "shop-"), tag))
		}
	case *unstructured.Unstructured:
		ro, err := argo.RolloutOf(o)
		if err != nil {
			return
		}
		p := string(ro.Status.Phase)
		if ro.Status.Message != "" {
			p += ": " + ro.Status.Message
		}
		if p != "" && p != q.phase {
			q.phase = p
			q.seq = append(q.seq, p)
		}
	case *argo.Rollout:
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err == nil {
			q.observe(&unstructured.Unstructured{Object: u})
		}
	}
}

// blueGreenFidelityManifest is the Rollout both controllers run; strategy
// is the rest of its blueGreen block.
func blueGreenFidelityManifest(strategy string) string {
	return shopRollout(3, "    blueGreen:\n      activeService: shop-active\n      previewService: shop-preview"+strategy+"\n")
}

const blueGreenServices = `apiVersion: v1
kind: Service
metadata: {name: shop-active}
spec: {selector: {app: shop}, ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: shop-preview}
spec: {selector: {app: shop}, ports: [{name: http, port: 80}]}
`

// playEmbeddedBlueGreen runs the Rollout on the embedded cluster: the new
// image at 60s, then at 120s the action then names ("promote", "abort";
// "" none).
func playEmbeddedBlueGreen(t *testing.T, strategy, then string) []string {
	t.Helper()
	indent := func(s string) string { return "  " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ") }
	src := "namespace: shop\nseed: 1\nnodeGroups:\n  - {name: nodes, role: Node, size: 3, capacity: {pods: 110, cpu: \"8\", memory: 16Gi}}\n" +
		"images:\n  - {match: \"*\", pull: 200ms, start: 200ms, ready: 500ms, stop: 300ms}\n" +
		"objects: |\n" + indent(blueGreenServices+"---\n"+blueGreenFidelityManifest(strategy)) + "\n" +
		"actions:\n  - {at: 60s, setImage: {target: rollout/shop, image: \"registry.example/shop:v2\"}}\n"
	if then != "" {
		src += "  - {at: 120s, " + then + ": rollout/shop}\n"
	}
	sc, err := scenario.Parse("bluegreen.yaml", []byte(src))
	if err != nil {
		t.Fatalf("scenario: %v\n%s", err, src)
	}
	q := newBGSequence()
	clock := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	c, err := embedded.Start(t.Context(), api, clock, sc, embedded.Options{Observers: []sim.Observer{func(_ time.Time, ev watch.Event) {
		if ev.Type != watch.Deleted {
			q.observe(ev.Object)
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(t.Context(), 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	return q.seq
}

// liveEvents gathers the namespace's ReplicaSet, Service and Rollout
// changes from three watches; etcd's resource versions order them as the
// API server stored them.
type liveEvents struct {
	mu     sync.Mutex
	events []liveEvent
}

type liveEvent struct {
	rv  int64
	obj runtime.Object
}

func (l *liveEvents) follow(ctx context.Context, t *testing.T, w watch.Interface) {
	go func() {
		defer w.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.ResultChan():
				if !ok {
					return
				}
				if ev.Type != watch.Added && ev.Type != watch.Modified {
					continue
				}
				m, ok := ev.Object.(metav1.Object)
				if !ok {
					continue
				}
				rv, _ := strconv.ParseInt(m.GetResourceVersion(), 10, 64)
				l.mu.Lock()
				l.events = append(l.events, liveEvent{rv, ev.Object.DeepCopyObject()})
				l.mu.Unlock()
			}
		}
	}()
}

func (l *liveEvents) sequence() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	evs := slices.Clone(l.events)
	slices.SortStableFunc(evs, func(a, b liveEvent) int { return int(a.rv - b.rv) })
	q := newBGSequence()
	for _, ev := range evs {
		q.observe(ev.obj)
	}
	return q.seq
}

// playLiveBlueGreen runs the same Rollout under Argo's real controller:
// the new image once v1 is Healthy, then once paused the action then
// names, and it waits until the ReplicaSet that goes (v1, or v2 after an
// abort) is scaled to zero.
func playLiveBlueGreen(t *testing.T, c *e2etest.Cluster, ns, strategy, then string) []string {
	t.Helper()
	c.Namespace(t, ns)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	l := &liveEvents{}
	opts := metav1.ListOptions{}
	rsw, err := c.Admin.AppsV1().ReplicaSets(ns).Watch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	svcw, err := c.Admin.CoreV1().Services(ns).Watch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	row, err := c.Argo.Dynamic.Resource(e2etest.RolloutsGVR).Namespace(ns).Watch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []watch.Interface{rsw, svcw, row} {
		l.follow(ctx, t, w)
	}
	for _, name := range []string{"shop-active", "shop-preview"} {
		svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "shop"}, Ports: []corev1.ServicePort{{Name: "http", Port: 80}}}}
		if _, err := c.Admin.CoreV1().Services(ns).Create(t.Context(), svc, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating service %s: %v", name, err)
		}
	}
	u := decode(t, blueGreenFidelityManifest(strategy))
	if _, err := c.Argo.Dynamic.Resource(e2etest.RolloutsGVR).Namespace(ns).Create(t.Context(), u, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating rollout: %v", err)
	}
	r := rollout{c: c, ns: ns, name: "shop"}
	first := r.waitFor(t, "v1 healthy behind the active Service", func(s snapshot) bool {
		return s.Phase == "Healthy" && s.StableRS != "" && s.ActiveSelector == s.StableRS && s.rs(s.StableRS).Ready == 3
	})
	r.setImage(t, "registry.example/shop:v2")
	if then != "" {
		r.waitFor(t, "v2 up behind the preview Service, paused", func(s snapshot) bool {
			return s.Phase == "Paused" && s.CurrentPodHash != first.StableRS && s.rs(s.CurrentPodHash).Ready == 3
		})
	}
	switch then {
	case "abort":
		r.abort(t)
		r.waitFor(t, "aborted: v1 active, v2 scaled to zero", func(s snapshot) bool {
			return s.Phase == "Degraded" && s.ActiveSelector == first.StableRS && s.CurrentPodHash != first.StableRS && s.rs(s.CurrentPodHash).Spec == 0
		})
	case "promote":
		r.promote(t)
		fallthrough
	default:
		r.waitFor(t, "v2 active and stable, v1 scaled to zero", func(s snapshot) bool {
			return s.Phase == "Healthy" && s.StableRS != first.StableRS && s.ActiveSelector == s.StableRS && s.rs(first.StableRS).Spec == 0
		})
	}
	// What the watches have yet to deliver is what the API server stored
	// before the last read: a short settle, not an assertion.
	time.Sleep(2 * time.Second)
	return l.sequence()
}

// The embedded controller and Argo's real one play the same blue/green
// Rollout — with auto-promotion, without it with a scale-down delay and a
// promote, and aborted at its pause — to the same sequence of ReplicaSet
// scales, Service selector switches and phases.
func TestBlueGreenEmbeddedMatchesArgo(t *testing.T) {
	c := cluster(t)
	for _, tc := range []struct {
		name, ns, strategy, then string
	}{
		{"auto-promotion", "bg-fidelity-auto", "", ""},
		{"no auto-promotion, scale-down delay", "bg-fidelity-manual", "\n      autoPromotionEnabled: false\n      scaleDownDelaySeconds: 10", "promote"},
		{"abort at the pause", "bg-fidelity-abort", "\n      autoPromotionEnabled: false", "abort"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			live := playLiveBlueGreen(t, c, tc.ns, tc.strategy, tc.then)
			emb := playEmbeddedBlueGreen(t, tc.strategy, tc.then)
			t.Logf("Argo's controller: %s", strings.Join(live, " · "))
			if len(live) < 10 || !slices.Equal(emb, live) {
				t.Errorf("the embedded controller:\n  %s\nArgo's controller:\n  %s", strings.Join(emb, "\n  "), strings.Join(live, "\n  "))
			}
		})
	}
}
