package argorollout_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/internal/rolloutfixture"
	"rollscope/kube/memapi"
	"rollscope/kube/objects"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// run is a Rollout in the embedded cluster, its image set to v2 a minute
// in, and what the controller did: every ReplicaSet scale in order
// ("old=9") and every event it recorded about the Rollout.
type run struct {
	ro     *argo.Rollout
	scales []string
	last   map[string]int32     // the last replicas of each ReplicaSet, by name
	live   map[string]time.Time // the pods there at the end, by name: when created
	events []string
	at     map[string]time.Time // when an event reason was last recorded
}

// action is a write at a moment of the run, built from the Rollout as it
// stands then (nil: the image set to v2, as at a minute in).
type action struct {
	at    time.Duration
	write func(*argo.Rollout) ([]argo.Write, error)
}

func rehearse(t *testing.T, replicas int, strategy string, after time.Duration, actions ...action) *run {
	t.Helper()
	return rehearseWith(t, replicas, strategy, "", after, actions...)
}

func rehearseWith(t *testing.T, replicas int, strategy, extraSpec string, after time.Duration, actions ...action) *run {
	t.Helper()
	sc, err := scenario.Parse("t.yaml", []byte(`namespace: shop
nodeGroups:
  - {name: nodes, role: Node, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*:broken", pullError: true}
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
`+rolloutfixture.Rollout(replicas, strategy)+extraSpec))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock})
	r := &run{at: map[string]time.Time{}, last: map[string]int32{}, live: map[string]time.Time{}}
	hashes := map[string]string{} // ReplicaSet name → "old" or "new"
	last := map[string]int32{}
	observe := func(now time.Time, ev watch.Event) {
		switch o := ev.Object.(type) {
		case *appsv1.ReplicaSet:
			if _, ok := hashes[o.Name]; !ok {
				hashes[o.Name] = "new"
				if len(hashes) == 1 {
					hashes[o.Name] = "old"
				}
			}
			if n := *o.Spec.Replicas; n != last[o.Name] || ev.Type == watch.Added && n > 0 {
				last[o.Name] = n
				r.scales = append(r.scales, fmt.Sprintf("%s=%d", hashes[o.Name], n))
				r.last[o.Name] = n
			}
		case *corev1.Pod:
			if ev.Type == watch.Deleted {
				delete(r.live, o.Name)
			} else {
				r.live[o.Name] = o.CreationTimestamp.Time
			}
		case *corev1.Event:
			if o.InvolvedObject.Kind == "Rollout" && ev.Type == watch.Added {
				r.events = append(r.events, o.Reason+": "+o.Message)
				r.at[o.Reason] = now
			}
		}
	}
	c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{Observers: []sim.Observer{observe}})
	if err != nil {
		t.Fatal(err)
	}
	dyn := c.Client.(interface{ Dynamic() dynamic.Interface }).Dynamic()
	row, _ := objects.For(kind.Rollout)
	c.Runner.At(time.Minute, func() { setImage(t, dyn, "v2") })
	for _, a := range actions {
		c.Runner.At(a.at, func() {
			w, err := row.Get(context.Background(), c.Client, "shop", "checkout")
			if err != nil {
				t.Errorf("read the rollout: %v", err)
				return
			}
			writes, err := a.write(w.Object().(*argo.Rollout))
			if err != nil {
				t.Errorf("at %v: %v", a.at, err)
			}
			for _, wr := range writes {
				var sub []string
				if wr.Subresource != "" {
					sub = []string{wr.Subresource}
				}
				if _, err := dyn.Resource(argo.Rollouts).Namespace("shop").Patch(context.Background(), "checkout", wr.Type, wr.Body, metav1.PatchOptions{}, sub...); err != nil {
					t.Errorf("at %v: %s: %v", a.at, wr.Body, err)
				}
			}
		})
	}
	if _, err := c.Runner.Run(context.Background(), sim.RunOptions{Until: after}); err != nil {
		t.Fatal(err)
	}
	w, err := row.Get(context.Background(), c.Client, "shop", "checkout")
	if err != nil {
		t.Fatal(err)
	}
	r.ro = w.Object().(*argo.Rollout)
	return r
}

// setImage sets the Rollout's image to tag, as `kubectl argo rollouts set
// image` does (an undo to v1 writes the same template back).
func setImage(t *testing.T, dyn dynamic.Interface, tag string) {
	patch := `{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"shop/checkout:` + tag + `"}]}}}}`
	if _, err := dyn.Resource(argo.Rollouts).Namespace("shop").Patch(context.Background(), "checkout", types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Errorf("set image: %v", err)
	}
}

// The cases are Argo's own (rollout/canary_test.go), run through the whole
// embedded cluster rather than one sync: the ReplicaSet scales Argo's
// controller makes, in its order, and the status it leaves.
func TestCanarySteps(t *testing.T) {
	for _, tc := range []struct {
		name     string
		replicas int
		strategy string
		scales   []string
		step     int32
		phase    argo.RolloutPhase
		message  string
		pause    bool // a CanaryPauseStep pause condition stands
		promoted bool // stableRS is the new template's hash
		events   []string
	}{{
		// TestCanaryRolloutScaleUpNewReplicaWithCorrectWeight, then
		// TestCanaryRolloutEnterPauseState.
		name: "setWeight 10 of 10 then an indefinite pause", replicas: 10,
		strategy: `{canary: {steps: [{setWeight: 10}, {pause: {}}]}}`,
		scales:   []string{"old=10", "old=9", "new=1"}, // the stable set first, as Argo
		step:     1, phase: argo.RolloutPhasePaused, message: "CanaryPauseStep", pause: true,
		events: []string{"RolloutStepCompleted: Rollout step 1/2 completed (setWeight: 10)", "RolloutPaused: Rollout is paused (CanaryPauseStep)"},
	}, {
		// TestCanaryRolloutNoProgressWhilePaused's weights: 50 of 4 with
		// the default 25% surge and unavailability.
		name: "setWeight 50 of 4 then a timed pause, then done", replicas: 4,
		strategy: `{canary: {steps: [{setWeight: 50}, {pause: {duration: 30s}}]}}`,
		scales:   []string{"old=4", "old=3", "new=2", "old=2", "old=1", "new=4", "old=0"},
		step:     2, phase: argo.RolloutPhaseHealthy, promoted: true,
		events: []string{"RolloutStepCompleted: Rollout step 2/2 completed (pause: 30s)", "RolloutCompleted: Rollout completed update to revision 2"},
	}, {
		// TestRolloutWithoutSteps (sync_test): no steps, the new set is
		// rolled to fully within surge and unavailability.
		name: "no steps", replicas: 4, strategy: `{canary: {}}`,
		phase: argo.RolloutPhaseHealthy, promoted: true,
		events: []string{"RolloutCompleted: Rollout completed update to revision 2 ("},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := rehearse(t, tc.replicas, tc.strategy, 20*time.Minute)
			st := r.ro.Status
			if tc.scales != nil && !slices.Equal(r.scales[:min(len(r.scales), len(tc.scales))], tc.scales) {
				t.Errorf("ReplicaSet scales %v, want them to start %v", r.scales, tc.scales)
			}
			if tc.scales != nil && tc.step > 0 && (st.CurrentStepIndex == nil || *st.CurrentStepIndex != tc.step) {
				t.Errorf("currentStepIndex %v, want %d", deref(st.CurrentStepIndex), tc.step)
			}
			if st.Phase != tc.phase || st.Message != tc.message {
				t.Errorf("phase %q message %q, want %q %q", st.Phase, st.Message, tc.phase, tc.message)
			}
			paused := len(st.PauseConditions) == 1 && st.PauseConditions[0].Reason == argo.PauseReasonCanaryPauseStep && st.ControllerPause
			if paused != tc.pause {
				t.Errorf("pause conditions %+v controllerPause %v, want paused %v", st.PauseConditions, st.ControllerPause, tc.pause)
			}
			if promoted := st.StableRS == st.CurrentPodHash; promoted != tc.promoted || st.CurrentPodHash == "" {
				t.Errorf("stableRS %q currentPodHash %q, want promoted %v", st.StableRS, st.CurrentPodHash, tc.promoted)
			}
			if st.ObservedGeneration != fmt.Sprint(r.ro.Generation) || st.CurrentStepHash != argo.StepHash(r.ro) {
				t.Errorf("observedGeneration %q (generation %d), currentStepHash %q", st.ObservedGeneration, r.ro.Generation, st.CurrentStepHash)
			}
			for _, want := range tc.events {
				if !slices.ContainsFunc(r.events, func(e string) bool { return strings.HasPrefix(e, want) }) {
					t.Errorf("no event %q among %q", want, r.events)
				}
			}
			want := map[argo.RolloutConditionType]corev1.ConditionStatus{argo.RolloutAvailable: corev1.ConditionTrue,
				argo.RolloutCompleted: map[bool]corev1.ConditionStatus{true: corev1.ConditionTrue, false: corev1.ConditionFalse}[tc.promoted]}
			for _, c := range st.Conditions {
				if w, ok := want[c.Type]; ok && c.Status != w {
					t.Errorf("condition %s is %s (%s), want %s", c.Type, c.Status, c.Reason, w)
				}
			}
		})
	}
}

// A timed pause lasts its duration of virtual time, from the moment the
// controller paused the Rollout.
func TestTimedPauseLastsItsDuration(t *testing.T) {
	r := rehearse(t, 4, `{canary: {steps: [{setWeight: 50}, {pause: {duration: 30s}}]}}`, 20*time.Minute)
	paused, done := r.at["RolloutPaused"], r.at["RolloutCompleted"]
	if paused.IsZero() || done.Sub(paused) < 30*time.Second {
		t.Errorf("paused at %v, completed at %v: the pause did not last 30s (events %q)", paused, done, r.events)
	}
}

func image(tag string) func(*argo.Rollout) ([]argo.Write, error) {
	return func(*argo.Rollout) ([]argo.Write, error) {
		body := `{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"shop/checkout:` + tag + `"}]}}}}`
		return []argo.Write{{Type: types.MergePatchType, Body: []byte(body)}}, nil
	}
}

func fixed(ws []argo.Write, err error) func(*argo.Rollout) ([]argo.Write, error) {
	return func(*argo.Rollout) ([]argo.Write, error) { return ws, err }
}

// The plugin's actions (model/argo's patches, byte for byte) on a canary
// of 4 at 25% then paused, 75% then paused: what Argo's controller makes
// of each, run to the end.
func TestActionsOnACanary(t *testing.T) {
	const steps = `{canary: {steps: [{setWeight: 25}, {pause: {}}, {setWeight: 75}, {pause: {}}]}}`
	at := 3 * time.Minute
	for _, tc := range []struct {
		name    string
		actions []action
		extra   string
		step    int32
		phase   argo.RolloutPhase
		message string
		abort   bool
		restart bool  // every pod there at the end is newer than the action
		newRS   int32 // the new ReplicaSet's replicas at the end
		stable  bool  // the new template's hash is stable
		events  []string
	}{{
		name:    "promote moves past the first pause to the second",
		actions: []action{{at, argo.Promote}},
		step:    3, phase: argo.RolloutPhasePaused, message: "CanaryPauseStep", newRS: 3,
		// No RolloutResumed: the plugin's patch has cleared the pause
		// condition before the controller sees it, as with Argo's.
		events: []string{"RolloutStepCompleted: Rollout step 2/4 completed (pause)", "RolloutStepCompleted: Rollout step 3/4 completed (setWeight: 75)"},
	}, {
		name:    "promote twice finishes the steps",
		actions: []action{{at, argo.Promote}, {at + 2*time.Minute, argo.Promote}},
		step:    4, phase: argo.RolloutPhaseHealthy, newRS: 4, stable: true,
	}, {
		name:    "promote-full skips the remaining steps",
		actions: []action{{at, argo.PromoteFull}},
		step:    4, phase: argo.RolloutPhaseHealthy, newRS: 4, stable: true,
		events: []string{"RolloutCompleted: Rollout completed update to revision 2 ("},
	}, {
		name:    "abort goes back to the stable ReplicaSet",
		actions: []action{{at, argo.Abort}},
		step:    0, phase: argo.RolloutPhaseDegraded, message: "RolloutAborted: Rollout aborted update to revision 2", abort: true, newRS: 0,
		events: []string{"RolloutAborted: Rollout aborted update to revision 2"},
	}, {
		name:    "retry after abort goes through the steps again",
		actions: []action{{at, argo.Abort}, {at + 2*time.Minute, argo.Retry}},
		step:    1, phase: argo.RolloutPhasePaused, message: "CanaryPauseStep", newRS: 1,
	}, {
		// A pause condition cleared while paused by hand is not a
		// promote: Argo does not move on, and pauses at the step again
		// (the plugin's promote unpauses too, for this reason).
		name:    "pause by hand holds a promote",
		actions: []action{{at, argo.Pause}, {at + time.Minute, fixed([]argo.Write{{Subresource: "status", Type: types.MergePatchType, Body: []byte(`{"status":{"pauseConditions":null}}`)}}, nil)}},
		step:    1, phase: argo.RolloutPhasePaused, message: "manually paused", newRS: 1,
	}, {
		name:    "resume after a pause by hand",
		actions: []action{{at, argo.Pause}, {at + time.Minute, argo.Resume}},
		step:    1, phase: argo.RolloutPhasePaused, message: "CanaryPauseStep", newRS: 1,
	}, {
		// Every pod (3 stable, 1 canary) replaced, the step kept.
		name:    "restart replaces every pod",
		actions: []action{{at, func(*argo.Rollout) ([]argo.Write, error) { return argo.Restart(epoch.Add(at)), nil }}},
		step:    1, phase: argo.RolloutPhasePaused, message: "CanaryPauseStep", newRS: 1, restart: true,
	}, {
		name:    "scale to 8 at 25%",
		actions: []action{{at, fixed(argo.Scale(8))}},
		step:    1, phase: argo.RolloutPhasePaused, message: "CanaryPauseStep", newRS: 2,
	}, {
		name:    "undo to v1 mid-canary skips back to stable",
		actions: []action{{at, image("v1")}},
		step:    4, phase: argo.RolloutPhaseHealthy, newRS: 4, stable: true,
		events: []string{"SkipSteps: Rollback to stable ReplicaSets"},
	}, {
		name:    "a broken image times out",
		actions: []action{{at, image("broken")}},
		extra:   "    progressDeadlineSeconds: 60\n",
		// Argo records no event for it: the condition and phase say it.
		step: 0, phase: argo.RolloutPhaseDegraded, message: `ProgressDeadlineExceeded: ReplicaSet "checkout-`, newRS: 1,
	}, {
		name:    "a broken image times out and aborts",
		actions: []action{{at, image("broken")}},
		extra:   "    progressDeadlineSeconds: 60\n    progressDeadlineAbort: true\n",
		step:    0, phase: argo.RolloutPhaseDegraded, message: "RolloutAborted: Rollout aborted update to revision 3: ReplicaSet", abort: true, newRS: 0,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := rehearseWith(t, 4, steps, strings.ReplaceAll(tc.extra, `\n`, "\n"), 30*time.Minute, tc.actions...)
			st := r.ro.Status
			if st.CurrentStepIndex == nil || *st.CurrentStepIndex != tc.step {
				t.Errorf("currentStepIndex %v, want %d", deref(st.CurrentStepIndex), tc.step)
			}
			if st.Phase != tc.phase || !strings.HasPrefix(st.Message, tc.message) || (tc.message == "") != (st.Message == "") {
				t.Errorf("phase %q message %q, want %q %q", st.Phase, st.Message, tc.phase, tc.message)
			}
			if tc.restart {
				for name, created := range r.live {
					if created.Before(epoch.Add(at)) {
						t.Errorf("pod %s, created at %v, outlived the restart", name, created)
					}
				}
				if len(r.live) != 4 || st.RestartedAt == nil || r.ro.Spec.RestartAt == nil || !st.RestartedAt.Equal(r.ro.Spec.RestartAt) {
					t.Errorf("%d pods; status.restartedAt %v, want spec.restartAt %v", len(r.live), st.RestartedAt, r.ro.Spec.RestartAt)
				}
			}
			if st.Abort != tc.abort {
				t.Errorf("abort %v, want %v", st.Abort, tc.abort)
			}
			if stable := st.StableRS == st.CurrentPodHash; stable != tc.stable {
				t.Errorf("stableRS %q currentPodHash %q, want stable %v", st.StableRS, st.CurrentPodHash, tc.stable)
			}
			if got := r.last["checkout-"+st.CurrentPodHash]; got != tc.newRS {
				t.Errorf("the current template's ReplicaSet ends at %d replicas (scales %v), want %d", got, r.scales, tc.newRS)
			}
			for _, want := range tc.events {
				if !slices.ContainsFunc(r.events, func(e string) bool { return strings.HasPrefix(e, want) }) {
					t.Errorf("no event %q among %q", want, r.events)
				}
			}
		})
	}
}

func deref(p *int32) any {
	if p == nil {
		return nil
	}
	return *p
}

// A scenario's scripted promote reaches the controller through the
// console's path, and the run lasts until the Rollout is done: it does not
// end at the promote, nor at the timed pause after it.
func TestScriptedPromoteRunsTheCanaryToTheEnd(t *testing.T) {
	sc, err := scenario.Parse("t.yaml", []byte(`namespace: shop
nodeGroups:
  - {name: nodes, role: Node, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
`+rolloutfixture.Rollout(4, `{canary: {steps: [{setWeight: 25}, {pause: {}}, {setWeight: 75}, {pause: {duration: 30s}}]}}`)+`actions:
  - {at: 30s, setImage: {target: rollout/checkout, image: "shop/checkout:v2"}}
  - {at: 2m, promote: rollout/checkout}
`))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	var results []string
	c, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock}), clock, sc, embedded.Options{
		OnAction: func(_ time.Time, kind, target, result string) { results = append(results, kind+" "+target+": "+result) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	row, _ := objects.For(kind.Rollout)
	w, err := row.Get(context.Background(), c.Client, "shop", "checkout")
	if err != nil {
		t.Fatal(err)
	}
	st := w.Object().(*argo.Rollout).Status
	if st.Phase != argo.RolloutPhaseHealthy || st.StableRS != st.CurrentPodHash || c.Elapsed() < 2*time.Minute+30*time.Second {
		t.Errorf("after %v: phase %q, stable %q, current %q (actions %q)", c.Elapsed(), st.Phase, st.StableRS, st.CurrentPodHash, results)
	}
	if want := []string{"setImage rollout/checkout: ok", "promote rollout/checkout: ok"}; !slices.Equal(results, want) {
		t.Errorf("actions %q, want %q", results, want)
	}
}
