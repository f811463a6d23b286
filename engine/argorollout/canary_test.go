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
	events []string
	at     map[string]time.Time // when an event reason was last recorded
}

func rehearse(t *testing.T, replicas int, strategy string, after time.Duration) *run {
	t.Helper()
	sc, err := scenario.Parse("t.yaml", []byte(fmt.Sprintf(`namespace: shop
nodeGroups:
  - {name: nodes, role: Node, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
  apiVersion: argoproj.io/v1alpha1
  kind: Rollout
  metadata: {name: checkout}
  spec:
    replicas: %d
    selector: {matchLabels: {app: checkout}}
    template:
      metadata: {labels: {app: checkout}}
      spec: {containers: [{name: web, image: "shop/checkout:v1"}]}
    strategy: %s
`, replicas, strategy)))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock})
	r := &run{at: map[string]time.Time{}}
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
	c.Runner.At(time.Minute, func() {
		patch := `{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"shop/checkout:v2"}]}}}}`
		if _, err := dyn.Resource(argo.Rollouts).Namespace("shop").Patch(context.Background(), "checkout", types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			t.Errorf("set image: %v", err)
		}
	})
	if _, err := c.Runner.Run(context.Background(), sim.RunOptions{Until: after}); err != nil {
		t.Fatal(err)
	}
	row, _ := objects.For(kind.Rollout)
	w, err := row.Get(context.Background(), c.Client, "shop", "checkout")
	if err != nil {
		t.Fatal(err)
	}
	r.ro = w.Object().(*argo.Rollout)
	return r
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
				t.Errorf("currentStepIndex %v, want %d", st.CurrentStepIndex, tc.step)
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
