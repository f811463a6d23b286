// Package forecast says what a rollout will do before it starts: how many
// times the deployment controller will scale a ReplicaSet, the most pods
// that will exist at once, the fewest that will be available, and about
// how long it will take. It rehearses the action: ReadState reads the
// deployment, its ReplicaSets and pods, Simulate copies them into a fresh
// in-memory API, applies the change there, and runs the real deployment
// and ReplicaSet controllers at full speed on a virtual clock, pods
// becoming ready as fast as the deployment's have so far
// (ObservedReadiness). Nothing is sent to the cluster the state was read
// from.
//
// StatefulSets and DaemonSets are rehearsed the same way (ReadWorkload,
// SimulateWorkload): the object, its ControllerRevisions, its pods and —
// for a DaemonSet — the nodes are copied, and the embedded StatefulSet or
// DaemonSet controller runs the change, so the forecast names the pods (or
// nodes) replaced in the order the controller replaces them, how many at a
// time, the peak pods, the fewest available and the time.
//
// Argo Rollouts are rehearsed the same way (ReadRollout, SimulateRollout):
// the Rollout, its ReplicaSets and pods (and a blue/green one's active and
// preview Services, whose selectors it switches) are copied and the
// embedded Argo controller runs the change, until the Rollout is Healthy, waits at a
// pause only a promote ends, is back on its stable pods after an abort, or
// passes its deadline; a shape that controller does not run (model/argo's
// Unmodelled) is declined in one line, not rehearsed.
//
// The change itself is the caller's: engine/perform hands Simulate the same
// dispatch it sends to the cluster, so the copy gets exactly what the
// cluster would, and ends on the copy a guided canary the change leaves
// stale (engine/canary's EndStale), since the rehearsal runs no canary
// controller. The controller arithmetic this package first forecast with is
// kept in its tests (arithmetic_test.go) as an independent oracle the
// rehearsal is checked against.
package forecast

import (
	"fmt"
	"time"

	"rollscope/model"
)

// Forecast is what the rollout will do.
type Forecast struct {
	// Steps counts ReplicaSet scalings (the ScalingReplicaSet events);
	// Waves counts the waits for new pods to become available.
	Steps, Waves int
	// PeakPods is the most pods wanted at once; LowestAvailable the fewest
	// available at any moment.
	PeakPods, LowestAvailable int32
	// Duration is the virtual time the rehearsal took to its outcome.
	Duration time.Duration
	// Outcome is how the rehearsed rollout ends: Finished,
	// DeadlineExceeded or Held.
	Outcome string
	// Readiness is what the rehearsal assumed about new pods.
	Readiness Readiness
	// Until is where a Rollout's rehearsal stopped short of its new pods
	// ("pauses at step 2 of 5 until promoted"); "" for a deployment.
	Until string
	// BlueGreen is what a blue/green Rollout's Services did; nil for
	// anything else.
	BlueGreen *Switch
}

func (f Forecast) String() string {
	s := model.Plural(f.Steps, "scaling step")
	switch {
	case f.Waves > 0:
		// The waves belong to the new pods, not to the steps: mid-rollout
		// the pods copied not yet ready each become ready at an instant of
		// their own, so there can be more waves than steps.
		s += ", new pods ready in " + model.Plural(f.Waves, "wave")
	case f.Steps > 0:
		// Only scale-downs, or pods already there: no new pod to wait for.
		s += ", no new pod to wait for"
	}
	s += fmt.Sprintf(", at most %s, never fewer than %d available", model.Plural(f.PeakPods, "pod"), f.LowestAvailable)
	d := f.Duration.Round(time.Second).String()
	switch {
	case f.Until != "":
		s += ", then " + f.Until + " after about " + d
	case f.Outcome == DeadlineExceeded:
		s += ", then stops after about " + d + ": progress deadline exceeded"
	case f.Outcome == Held:
		s += ", then holds part way after about " + d
	case f.Duration > 0:
		s += ", about " + d
	case f.Outcome == Finished && f.Steps == 0:
		s += ", nothing to roll"
	}
	if f.BlueGreen != nil {
		s += "; " + f.BlueGreen.String()
	}
	if f.Readiness.Ready > 0 {
		s += "; " + f.Readiness.String()
	}
	return s
}
