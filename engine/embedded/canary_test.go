package embedded_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/canary"
	"rollscope/engine/control"
	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model"
)

// canaryRun is one scenario run with a guided canary, checked at every
// committed change.
type canaryRun struct {
	t       *testing.T
	cluster *embedded.Cluster
	end     string
	actions []string
	events  []string
	// original is the Deployment's strategy as the canary found it.
	original *model.CanaryOriginal
	replicas int32
	// reached[k] is the most pods the canary's ReplicaSet had, in spec and
	// in pods, while step k held; created[k] every new pod seen then.
	reachedSpec, reachedPods map[int]int32
	created                  map[string]int
	steps                    []model.CanaryStep
	violations               []string
	// healthyOld: the old pods never fail, so availability is checked.
	healthyOld bool
	// holders counts the Deployment's writes by the lease holder they carry.
	holders map[string]int
}

func runCanary(t *testing.T, sc *scenario.Scenario, before ...func(*embedded.Cluster)) *canaryRun {
	t.Helper()
	r := &canaryRun{t: t, reachedSpec: map[int]int32{}, reachedPods: map[int]int32{}, created: map[string]int{}, healthyOld: true}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	var err error
	r.cluster, err = embedded.Start(context.Background(), api, clock, sc, embedded.Options{
		Observers: []sim.Observer{r.check},
		OnAction: func(now time.Time, kind, target, result string) {
			r.actions = append(r.actions, fmt.Sprintf("%s %s: %s", kind, target, result))
		},
	})
	if err != nil {
		t.Fatalf("starting scenario %s: %v", sc.Name, err)
	}
	for _, b := range before {
		b(r.cluster)
	}
	if r.end, err = r.cluster.Run(context.Background(), 0); err != nil {
		t.Fatalf("running scenario %s: %v", sc.Name, err)
	}
	return r
}

func (r *canaryRun) violate(now time.Time, format string, args ...any) {
	r.violations = append(r.violations, fmt.Sprintf("t=%.3f ", now.Sub(epoch).Seconds())+fmt.Sprintf(format, args...))
}

// check holds the canary's promises at every change: while step k holds,
// the new ReplicaSet never has more than the step's pods, no old pod goes
// (availability stays at replicas), and no pod beyond the step's is ever
// created; during the last step the Deployment's own bounds hold.
func (r *canaryRun) check(now time.Time, ev watch.Event) {
	if e, ok := ev.Object.(*corev1.Event); ok && strings.HasPrefix(e.Reason, "Canary") && ev.Type == watch.Added {
		r.events = append(r.events, e.Reason+": "+e.Message)
	}
	if d, ok := ev.Object.(*appsv1.Deployment); ok {
		if c, found, _ := model.ReadCanary(d); found && c.Lease.Holder != "" {
			if r.holders == nil {
				r.holders = map[string]int{}
			}
			r.holders[c.Lease.Holder]++
		}
	}
	l := r.cluster.Runner.Listers()
	ds, _ := l.Deployments.List(labels.Everything())
	for _, d := range ds {
		c, ok, err := model.ReadCanary(d)
		if err != nil {
			r.violate(now, "%s: %v", d.Name, err)
		}
		if !ok || !model.CanaryCurrent(d, c) {
			continue
		}
		if r.original == nil {
			o := c.Plan.Original
			r.original, r.replicas, r.steps = &o, c.Plan.Replicas, c.Plan.Steps
		}
		rss := ownedBy(l, d)
		newRS := model.FindNewReplicaSet(d, rss)
		var total, available, newPods int32
		for _, rs := range rss {
			total += model.SpecReplicas(rs)
			available += rs.Status.AvailableReplicas
		}
		if newRS != nil {
			objs, _ := l.PodIndex.ByIndex("controller-uid", string(newRS.UID))
			for _, o := range objs {
				p := o.(*corev1.Pod)
				if model.IsPodActive(p) {
					newPods++
				}
				if _, seen := r.created[p.Name]; !seen {
					r.created[p.Name] = c.State.Step
				}
			}
		}
		step := c.Plan.Step(c.State.Step)
		if c.State.Phase == model.CanaryRolling {
			if d.Status.ObservedGeneration < d.Generation {
				continue
			}
			surge, unavailable, _ := resolveOriginal(c.Plan.Original, r.replicas)
			prev := c.Plan.Step(c.State.Step - 1).Pods
			if max := r.replicas + max(surge, prev); total > max {
				r.violate(now, "last step: Σ spec %d > replicas + max(maxSurge %d, the step before %d)", total, surge, prev)
			}
			if min := r.replicas - unavailable; r.healthyOld && available < min {
				r.violate(now, "last step: Σ available %d < replicas − maxUnavailable %d", available, min)
			}
			continue
		}
		if newRS != nil {
			spec := model.SpecReplicas(newRS)
			if spec > step.Pods {
				r.violate(now, "step %d: new ReplicaSet spec %d > the step's %d pods", c.State.Step, spec, step.Pods)
			}
			r.reachedSpec[c.State.Step] = max(r.reachedSpec[c.State.Step], spec)
		}
		if newPods > step.Pods {
			r.violate(now, "step %d: %d new pods > the step's %d", c.State.Step, newPods, step.Pods)
		}
		r.reachedPods[c.State.Step] = max(r.reachedPods[c.State.Step], newPods)
		if total > r.replicas+step.Pods {
			r.violate(now, "step %d: Σ spec %d > replicas %d + step %d", c.State.Step, total, r.replicas, step.Pods)
		}
		if r.healthyOld && available < r.replicas && d.Status.ObservedGeneration >= d.Generation {
			r.violate(now, "step %d: Σ available %d < replicas %d: an old pod went", c.State.Step, available, r.replicas)
		}
	}
}

func resolveOriginal(o model.CanaryOriginal, replicas int32) (surge, unavailable int32, err error) {
	ru := o.Strategy.RollingUpdate
	if ru == nil {
		return 0, replicas, nil
	}
	surge, unavailable, err = model.ResolveFenceposts(ru.MaxSurge, ru.MaxUnavailable, replicas)
	return surge, min(unavailable, replicas), err
}

func ownedBy(l control.Listers, d *appsv1.Deployment) []*appsv1.ReplicaSet {
	objs, _ := l.ReplicaSetIndex.ByIndex(control.IndexByController, string(d.UID))
	out := make([]*appsv1.ReplicaSet, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.(*appsv1.ReplicaSet))
	}
	return out
}

func (r *canaryRun) requireNoViolations() {
	r.t.Helper()
	if n := len(r.violations); n > 0 {
		r.t.Fatalf("%d violations, first: %v", n, r.violations[:min(n, 10)])
	}
}

// requireHeldExactly: every held step reached exactly its pods, in spec and
// in pods, and no pod beyond them was ever created for it.
func (r *canaryRun) requireHeldExactly(upTo int) {
	r.t.Helper()
	perStep := map[int]int32{}
	for _, k := range r.created {
		perStep[k]++
	}
	var created int32
	for k := 1; k <= upTo; k++ {
		want := r.steps[k-1].Pods
		created += perStep[k]
		if r.reachedSpec[k] != want || r.reachedPods[k] != want {
			r.t.Errorf("step %d held %d pods in spec and %d running, want exactly %d", k, r.reachedSpec[k], r.reachedPods[k], want)
		}
		if created != want {
			r.t.Errorf("by the end of step %d, %d new pods were created, want exactly %d", k, created, want)
		}
	}
}

// requireRestored: the Deployment's strategy, minReadySeconds and
// progressDeadlineSeconds are exactly what they were, and the canary's
// annotations are gone.
func (r *canaryRun) requireRestored(d *appsv1.Deployment) {
	r.t.Helper()
	if r.original == nil {
		r.t.Fatal("no canary was ever seen")
	}
	got := model.CanaryOriginalOf(d)
	if !reflect.DeepEqual(got, *r.original) {
		r.t.Errorf("after the canary the deployment has %+v, want it as it was: %+v", got, *r.original)
	}
	if model.HasCanaryAnnotations(d) {
		r.t.Errorf("canary annotations left: %v", d.Annotations)
	}
}

// canaryDeployment is smallDeployment whose image example.com/app:broken
// crash-loops.
func canaryDeployment(replicas int, surge, unavailable string, minReady int) string {
	return strings.Replace(smallDeployment(replicas, surge, unavailable, minReady), "images:\n",
		"images:\n  - {match: \"example.com/app:broken\", pull: 1s, start: 1s, crashLoop: true}\n", 1)
}

func TestCanaryHoldsEachStepExactlyAndRestoresTheStrategy(t *testing.T) {
	sc := parse(t, "canary.yaml", canaryDeployment(20, "25%", "10%", 3)+`
actions:
  - {at: 30s, canary: {target: deployment/web, container: app, image: "example.com/app:v2", steps: [1, "25%", "50%"], hold: pause}}
  - {at: 90s, promote: deployment/web}
  - {at: 150s, promote: deployment/web}
  - {at: 210s, promote: deployment/web}
`)
	r := runCanary(t, sc)
	r.requireNoViolations()
	for _, a := range r.actions {
		if !strings.HasSuffix(a, "ok") && !strings.Contains(a, "canary started") && !strings.Contains(a, "promoted") {
			t.Errorf("action %s", a)
		}
	}
	r.requireHeldExactly(3)
	rr := &run{t: t, cluster: r.cluster}
	rr.requireComplete("web")
	r.requireRestored(rr.deployment("web"))
	if !containsPrefix(r.events, "CanaryFinished") {
		t.Errorf("no CanaryFinished event: %v", r.events)
	}
}

// crashEvidence: a gate names a crash-looping pod by its back-off or its
// restart.
func crashEvidence(s string) bool {
	return strings.Contains(s, "CrashLoopBackOff") || strings.Contains(s, "restarted")
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// A crash-looping image at step 1 with onFailure abort ends on the stable
// revision at full size, the strategy as it was, the failed gate named.
func TestCanaryCrashLoopWithOnFailureAbortReturnsToStable(t *testing.T) {
	sc := parse(t, "canary.yaml", canaryDeployment(10, "2", "1", 0)+`
actions:
  - {at: 30s, canary: {target: deployment/web, container: app, image: "example.com/app:broken", steps: [2, "50%"], hold: 1m, onFailure: abort}}
`)
	r := runCanary(t, sc)
	r.requireNoViolations()
	r.requireHeldExactly(1)
	rr := &run{t: t, cluster: r.cluster}
	rr.requireComplete("web")
	d := rr.deployment("web")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "example.com/app:v1" {
		t.Errorf("after the abort the template runs %s, want the stable example.com/app:v1", img)
	}
	r.requireRestored(d)
	if a, ok := model.AbortOf(d.Annotations); !ok || a.Back != 1 {
		t.Errorf("no abort back to revision 1 recorded: %v", d.Annotations)
	}
	if !containsPrefix(r.events, "CanaryGateFailed: Canary step 1 of 3 failed its gate: pod web-") ||
		!crashEvidence(strings.Join(r.events, "\n")) || !strings.Contains(strings.Join(r.events, "\n"), "aborting") {
		t.Errorf("the failed gate is not named with its pod and reason: %v", r.events)
	}
}

// With onFailure pause the canary holds at step 1 with exactly its pods and
// says which gate failed; the run ends there, as a paused rollout does.
func TestCanaryCrashLoopWithOnFailurePauseHoldsAtStepOne(t *testing.T) {
	sc := parse(t, "canary.yaml", canaryDeployment(10, "25%", "0", 5)+`
actions:
  - {at: 30s, canary: {target: deployment/web, container: app, image: "example.com/app:broken", steps: ["10%", "50%"], onFailure: pause}}
`)
	r := runCanary(t, sc)
	r.requireNoViolations()
	if r.end != sim.EndQuiescent {
		t.Errorf("the run ended %s, want quiescent (held and failed)", r.end)
	}
	d := (&run{t: t, cluster: r.cluster}).deployment("web")
	c, ok, err := model.ReadCanary(d)
	if err != nil || !ok {
		t.Fatalf("no canary left holding: %v %v", ok, err)
	}
	if c.State.Step != 1 || c.State.Phase != model.CanaryFailed || !crashEvidence(c.State.Gate) || !strings.HasPrefix(c.State.Gate, "pod web-") {
		t.Errorf("canary state %+v, want step 1 failed with the crash-looping pod named", c.State)
	}
	rss := ownedBy(r.cluster.Runner.Listers(), d)
	newRS := model.FindNewReplicaSet(d, rss)
	if newRS == nil || model.SpecReplicas(newRS) != 1 || newRS.Status.Replicas != 1 {
		t.Errorf("the new ReplicaSet is %+v, want exactly 1 pod (10%% of 10)", newRS)
	}
	var available int32
	for _, rs := range rss {
		available += rs.Status.AvailableReplicas
	}
	if available != 10 {
		t.Errorf("%d pods available while held, want all 10 old ones", available)
	}
	if !model.CanaryHeld(d) {
		t.Error("the failed canary let go of its hold")
	}
}

// Timed holds advance by themselves once the gates have passed for the
// hold; random plans over replicas 1–200, steps, percentages and the
// Deployment's own surge and unavailability (0 included) all hold the
// canary's promises.
func TestCanaryRandomPlansHoldExactly(t *testing.T) {
	rnd := rand.New(rand.NewSource(13))
	budgets := [][2]string{{"1", "0"}, {"0", "1"}, {"25%", "25%"}, {"0", "30%"}, {"3", "0"}, {"100%", "0"}, {"10%", "0"}}
	n := 10
	if testing.Short() {
		n = 3
	}
	for i := range n {
		replicas := 1 + rnd.Intn(200)
		if i == 0 {
			replicas = 1
		}
		var steps []string
		pods := 0
		for len(steps) < 3 && pods < replicas {
			next := pods + 1 + rnd.Intn(max(1, replicas/3))
			if next > replicas {
				break
			}
			pods = next
			if p := (100*pods + replicas - 1) / replicas; rnd.Intn(2) == 0 || p == 100 {
				steps = append(steps, fmt.Sprint(pods))
			} else {
				// The smallest percentage that still resolves to pods.
				p := (100*pods + replicas - 1) / replicas
				steps = append(steps, fmt.Sprintf("\"%d%%\"", p))
				pods = (p*replicas + 99) / 100
			}
		}
		b := budgets[rnd.Intn(len(budgets))]
		timed := rnd.Intn(2) == 0
		actions := fmt.Sprintf("  - {at: 30s, canary: {target: deployment/web, container: app, image: \"example.com/app:v2\", steps: [%s], hold: %s}}\n",
			strings.Join(steps, ", "), map[bool]string{true: "20s", false: "pause"}[timed])
		if !timed {
			for k := range len(steps) {
				actions += fmt.Sprintf("  - {at: %ds, promote: deployment/web}\n", 90+60*k)
			}
		}
		name := fmt.Sprintf("replicas=%d steps=%s surge=%s unavailable=%s timed=%v", replicas, strings.Join(steps, ","), b[0], b[1], timed)
		t.Run(name, func(t *testing.T) {
			sc := parse(t, "canary.yaml", canaryDeployment(replicas, b[0], b[1], rnd.Intn(4))+"actions:\n"+actions)
			r := runCanary(t, sc)
			for _, a := range r.actions {
				if strings.Contains(a, "cannot") || strings.Contains(a, "error") {
					t.Fatalf("action refused: %s", a)
				}
			}
			r.requireNoViolations()
			r.requireHeldExactly(len(r.steps) - 1)
			rr := &run{t: t, cluster: r.cluster}
			rr.requireComplete("web")
			r.requireRestored(rr.deployment("web"))
		})
	}
}

// Two rollscopes watching one canary never both drive it: the first to
// take the lease keeps it, the other only watches, and the canary finishes
// as with one.
func TestCanaryHasOneDriverAmongTwo(t *testing.T) {
	sc := parse(t, "canary.yaml", canaryDeployment(12, "1", "0", 2)+`
actions:
  - {at: 30s, canary: {target: deployment/web, container: app, image: "example.com/app:v2", steps: [2, "50%"], hold: 40s}}
`)
	r := runCanary(t, sc, func(c *embedded.Cluster) {
		c.Runner.Add(canary.New(c.Runner.Env("second-canary-controller"), "a second console", nil))
	})
	r.requireNoViolations()
	r.requireHeldExactly(2)
	rr := &run{t: t, cluster: r.cluster}
	rr.requireComplete("web")
	r.requireRestored(rr.deployment("web"))
	if len(r.holders) != 1 {
		t.Errorf("the canary was driven under %d holders, want one: %v", len(r.holders), r.holders)
	}
}

// A 200-replica canary through three timed holds to 100%, at full speed:
// what `rollscope simulate` of such a scenario costs.
func BenchmarkCanary200(b *testing.B) {
	src := canaryDeployment(200, "25%", "25%", 0) + `actions:
  - {at: 30s, canary: {target: deployment/web, container: app, image: "example.com/app:v2", steps: [10, "25%", "50%"], hold: 30s}}
`
	sc, err := scenario.Parse("canary.yaml", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		clock := sim.NewClock(epoch)
		c, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed}), clock, sc, embedded.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if end, err := c.Run(context.Background(), 0); err != nil || end != sim.EndQuiescent {
			b.Fatal(end, err)
		}
	}
}

// A script sees each hold and the strategy coming back in the trace:
// deployment lines carry the resolved maxSurge and maxUnavailable and the
// canary's step and state.
func TestCanaryTraceShowsEachHoldAndTheStrategyRestored(t *testing.T) {
	sc := parse(t, "canary.yaml", canaryDeployment(8, "2", "1", 0)+`
actions:
  - {at: 30s, canary: {target: deployment/web, container: app, image: "example.com/app:v2", steps: [1, "50%"], hold: pause}}
  - {at: 60s, promote: deployment/web}
  - {at: 90s, promote: deployment/web}
`)
	r := startRun(t, sc, 0)
	type line struct {
		Type           string `json:"type"`
		MaxSurge       *int32 `json:"maxSurge"`
		MaxUnavailable *int32 `json:"maxUnavailable"`
		Canary         *struct {
			Step  int    `json:"step"`
			State string `json:"state"`
		} `json:"canary"`
	}
	var seen []string
	for _, raw := range strings.Split(strings.TrimSpace(r.trace.String()), "\n") {
		var l line
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("trace line %s: %v", raw, err)
		}
		if l.Type != "deployment" {
			continue
		}
		if l.MaxSurge == nil || l.MaxUnavailable == nil {
			t.Fatalf("deployment line without maxSurge/maxUnavailable: %s", raw)
		}
		s := fmt.Sprintf("%d/%d", *l.MaxSurge, *l.MaxUnavailable)
		if l.Canary != nil {
			s += fmt.Sprintf(" step %d %s", l.Canary.Step, l.Canary.State)
		}
		if len(seen) == 0 || seen[len(seen)-1] != s {
			seen = append(seen, s)
		}
	}
	want := []string{"2/1", "1/0 step 1 holding", "4/0 step 2 holding", "2/1 step 3 rolling", "2/1"}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("the trace's deployment lines went %v, want %v", seen, want)
	}
}

// Someone else changes the template mid-step (a set image sent past the
// canary): the canary ends, and the deployment gets its own strategy back
// instead of keeping a hold under which no new pod would ever be available.
func TestCanaryEndedByAnotherChangePutsTheStrategyBack(t *testing.T) {
	sc := parse(t, "canary.yaml", canaryDeployment(6, "1", "0", 0)+`
actions:
  - {at: 30s, canary: {target: deployment/web, container: app, image: "example.com/app:v2", steps: [2], hold: pause}}
  - {at: 60s, setImage: {target: deployment/web, container: app, image: "example.com/app:v3"}}
`)
	r := runCanary(t, sc)
	r.requireNoViolations()
	rr := &run{t: t, cluster: r.cluster}
	rr.requireComplete("web")
	d := rr.deployment("web")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "example.com/app:v3" {
		t.Errorf("the deployment runs %s, want the v3 set past the canary", img)
	}
	r.requireRestored(d)
	if !containsPrefix(r.events, "CanaryEnded: Canary ended: the template changed under it") {
		t.Errorf("no event says why the canary ended: %v", r.events)
	}
}

// The guided-canary scenario the README offers runs to the end: each hold
// exact, the strategy restored.
func TestGuidedCanaryScenarioFile(t *testing.T) {
	sc, err := scenario.Load("../../testdata/scenarios/guided-canary.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := runCanary(t, sc)
	r.requireNoViolations()
	r.requireHeldExactly(2)
	rr := &run{t: t, cluster: r.cluster}
	rr.requireComplete("frontend")
	r.requireRestored(rr.deployment("frontend"))
}
