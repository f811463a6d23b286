package argorollout_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/internal/rolloutfixture"
	"rollscope/kube/memapi"
	"rollscope/model/argo"
)

// invariantWatch checks, at every change the embedded cluster makes, what
// Argo's arithmetic promises of a canary once its first revision is up:
// never more than replicas + maxSurge pods asked for, never fewer
// available than replicas − maxUnavailable, and the stable ReplicaSet
// never below the count its step's weight gives it
// (ApproximateWeightedCounts) while the steps run.
type invariantWatch struct {
	t        *testing.T
	what     string
	ro       *argo.Rollout
	rss      map[string]*appsv1.ReplicaSet // by pod-template hash
	up       bool                          // the first revision has been fully available
	checks   int
	failures int
}

func (w *invariantWatch) observe(_ time.Time, ev watch.Event) {
	switch o := ev.Object.(type) {
	case *unstructured.Unstructured:
		if ro, err := argo.RolloutOf(o); err == nil && o.GetKind() == "Rollout" {
			w.ro = ro
		}
	case *appsv1.ReplicaSet:
		h := o.Labels[argo.PodTemplateHashLabel]
		shrunk := ""
		if old := w.rss[h]; old != nil && *o.Spec.Replicas < *old.Spec.Replicas {
			shrunk = h
		}
		if ev.Type == watch.Deleted {
			delete(w.rss, h)
		} else {
			w.rss[h] = o
		}
		w.check(shrunk)
		return
	default:
		return
	}
	w.check("")
}

// check checks the invariants; shrunk is the hash of a ReplicaSet this
// change scaled down ("" for none): a step to a lower weight leaves the
// stable set below its new count until it is scaled back up, which is no
// breach, but scaling it down below that count is.
func (w *invariantWatch) check(shrunk string) {
	ro := w.ro
	if ro == nil {
		return
	}
	replicas := *ro.Spec.Replicas
	var spec, available int32
	for _, rs := range w.rss {
		spec += *rs.Spec.Replicas
		available += rs.Status.AvailableReplicas
	}
	st := ro.Status
	if !w.up {
		w.up = st.StableRS != "" && st.StableRS == st.CurrentPodHash && available >= replicas
		return
	}
	w.checks++
	fail := func(format string, args ...any) {
		if w.failures++; w.failures <= 5 {
			w.t.Errorf("%s: step %v stable %s current %s, ReplicaSets %s: "+format,
				append([]any{w.what, deref(st.CurrentStepIndex), st.StableRS, st.CurrentPodHash, w.describe()}, args...)...)
		}
	}
	if most := replicas + argo.MaxSurge(ro); spec > most {
		fail("%d pods asked for, more than replicas + maxSurge = %d", spec, most)
	}
	if least := replicas - argo.MaxUnavailable(ro); available < least {
		fail("%d available, fewer than replicas − maxUnavailable = %d", available, least)
	}
	stable := w.rss[st.StableRS]
	if stable == nil || shrunk != st.StableRS || st.StableRS == st.CurrentPodHash || st.Abort || st.PromoteFull {
		return
	}
	_, want := argo.ApproximateWeightedCounts(replicas, argo.CurrentSetWeight(ro), 100, argo.MaxSurge(ro))
	if *stable.Spec.Replicas < want {
		fail("the stable ReplicaSet at %d, below the %d its weight %d%% gives it", *stable.Spec.Replicas, want, argo.CurrentSetWeight(ro))
	}
}

func (w *invariantWatch) describe() string {
	var parts []string
	for h, rs := range w.rss {
		parts = append(parts, fmt.Sprintf("%s spec %d available %d", h, *rs.Spec.Replicas, rs.Status.AvailableReplicas))
	}
	return strings.Join(parts, ", ")
}

// playWatched runs sc on the embedded cluster for an hour of virtual time
// with w watching.
func playWatched(t *testing.T, sc *scenario.Scenario, w *invariantWatch) {
	t.Helper()
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{Observers: []sim.Observer{w.observe}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Runner.Run(context.Background(), sim.RunOptions{Until: time.Hour}); err != nil {
		t.Fatal(err)
	}
}

// TestCanaryInvariantsOnRandomShapes plays seeded random canaries — any
// replicas, surge, unavailability and weights — through an image change,
// checking the invariants at every change.
func TestCanaryInvariantsOnRandomShapes(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	for i := range 60 {
		replicas := 1 + rng.Intn(9)
		surge, unavailable := rng.Intn(4), rng.Intn(4)
		if surge == 0 && unavailable == 0 {
			unavailable = 1 // Argo refuses both at zero
		}
		var steps []string
		for range 1 + rng.Intn(4) {
			steps = append(steps, fmt.Sprintf("{setWeight: %d}", rng.Intn(101)), fmt.Sprintf("{pause: {duration: %ds}}", 1+rng.Intn(5)))
		}
		shape := fmt.Sprintf("replicas %d, maxSurge %d, maxUnavailable %d, steps [%s]", replicas, surge, unavailable, strings.Join(steps, ", "))
		sc, err := scenario.Parse("random.yaml", []byte(fmt.Sprintf(`namespace: shop
seed: %d
nodeGroups:
  - {name: nodes, role: Node, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, jitter: 1s, stop: 1s}
objects: |
`+rolloutfixture.Rollout(replicas, fmt.Sprintf(`{canary: {maxSurge: %d, maxUnavailable: %d, steps: [%s]}}`, surge, unavailable, strings.Join(steps, ", ")))+`actions:
  - {at: 30s, setImage: {target: rollout/checkout, container: web, image: "shop/checkout:v2"}}
`, i+1)))
		if err != nil {
			t.Fatalf("%s: %v", shape, err)
		}
		w := &invariantWatch{t: t, what: shape, rss: map[string]*appsv1.ReplicaSet{}}
		playWatched(t, sc, w)
		if w.checks == 0 {
			t.Errorf("%s: the first revision never came up, nothing was checked", shape)
		}
		if w.ro == nil || w.ro.Status.StableRS != w.ro.Status.CurrentPodHash {
			t.Errorf("%s: the canary did not finish: %+v", shape, w.ro.Status)
		}
	}
}

// TestCanaryInvariantsOnBuiltins checks the invariants at every change of
// the built-in scenarios that declare a canary Rollout.
func TestCanaryInvariantsOnBuiltins(t *testing.T) {
	for _, name := range scenario.Builtins() {
		src, _ := scenario.BuiltinSource(name)
		if !strings.Contains(string(src), "kind: Rollout") || !strings.Contains(string(src), "canary:") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			sc, err := scenario.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			playWatched(t, sc, &invariantWatch{t: t, what: name, rss: map[string]*appsv1.ReplicaSet{}})
		})
	}
}
