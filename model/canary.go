package model

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/argo"
)

// A guided canary holds a plain Deployment's new version on exactly N pods
// with nothing but the Deployment's own fields (engine/canary does it; the
// technique and why it is exact are in engine/canary/doc.go). Its state lives
// in three annotations on the Deployment, so that a restarted rollscope — or
// another console — reads where the canary is; this is their one spelling.
const (
	// CanaryAnnotation is the plan (CanaryPlan as JSON): the steps, what to
	// do on a failed gate, and the Deployment's own strategy,
	// minReadySeconds and progressDeadlineSeconds from before the canary,
	// which every way out of it restores.
	CanaryAnnotation = Prefix + "canary"
	// canaryStateAnnotation is where the canary is (CanaryState as JSON).
	canaryStateAnnotation = Prefix + "canary-state"
	// canaryLeaseAnnotation names the one rollscope driving the canary and
	// when it last said so (CanaryLease as JSON).
	canaryLeaseAnnotation = Prefix + "canary-lease"
	// CanaryLabel marks a Deployment that carries a canary's annotations:
	// a console's controllers watch only the Deployments it selects (the
	// API server filters a label selector), not every Deployment's status
	// writes while a fleet rolls.
	CanaryLabel = Prefix + "canary"
)

// What a Deployment carries while a canary step holds. A new pod becomes
// available only after minReadySeconds of readiness; so huge a value that it
// never comes keeps the canary's pods ready but never available, and the
// controller manager never scales the old ReplicaSet down with
// maxUnavailable 0. Validation wants progressDeadlineSeconds above
// minReadySeconds; math.MaxInt32 is upstream's "no deadline", so the held
// Deployment never reports ProgressDeadlineExceeded — the canary enforces
// the step's deadline itself, from the saved original.
const (
	CanaryHoldMinReadySeconds int32 = math.MaxInt32 - 1
	CanaryHoldDeadlineSeconds int32 = math.MaxInt32
)

// What to do when a step's health gate fails.
const (
	CanaryOnFailurePause = "pause" // hold at the step and say which gate failed
	CanaryOnFailureAbort = "abort" // go back to the stable revision, as x does
)

// CanaryHoldPause is the hold that waits for the operator's promote.
const CanaryHoldPause = "pause"

// Canary phases, the values of CanaryState.Phase.
const (
	// CanaryHolding: a step's pods are up or coming up, held there.
	CanaryHolding = "holding"
	// CanaryFailed: a gate failed and onFailure is pause; still held at the
	// step until the operator promotes or aborts.
	CanaryFailed = "failed"
	// CanaryInconclusive: the step's metric gates gave no answer — Argo's
	// Inconclusive verdict, or Error once the metrics source failed more
	// often in a row than consecutiveErrorLimit allows; held at the step
	// for a human to promote or abort, whatever onFailure says: Argo
	// pauses a Rollout on an inconclusive analysis, and a source that is
	// down says nothing of the canary. Gate says which.
	CanaryInconclusive = "inconclusive"
	// CanaryRolling: the last step; the Deployment has its own strategy back
	// and the controller manager finishes the rollout with its budgets.
	CanaryRolling = "rolling"
)

// CanaryStep is one step of a plan.
type CanaryStep struct {
	// Spec is the step as the operator wrote it: "1", "10%", "100%".
	Spec string `json:"spec"`
	// Pods is Spec resolved against the Deployment's replicas, a
	// percentage rounded up as maxSurge is.
	Pods int32 `json:"pods"`
	// Hold is what ends the step: "pause" (the operator's promote) or a
	// duration the gates must pass for ("2m0s"). The last step has none.
	Hold string `json:"hold,omitempty"`
}

// HoldFor is a timed hold's duration; ok is false for a pause.
func (s CanaryStep) HoldFor() (time.Duration, bool) {
	if s.Hold == "" || s.Hold == CanaryHoldPause {
		return 0, false
	}
	d, err := time.ParseDuration(s.Hold)
	return d, err == nil
}

// CanaryOriginal is what the canary changes on the Deployment besides its
// template, as it was before: restored exactly when the canary ends.
type CanaryOriginal struct {
	Strategy                appsv1.DeploymentStrategy `json:"strategy"`
	MinReadySeconds         int32                     `json:"minReadySeconds"`
	ProgressDeadlineSeconds *int32                    `json:"progressDeadlineSeconds,omitempty"`
}

// CanaryOriginalOf reads d's own settings.
func CanaryOriginalOf(d *appsv1.Deployment) CanaryOriginal {
	o := CanaryOriginal{Strategy: *d.Spec.Strategy.DeepCopy(), MinReadySeconds: d.Spec.MinReadySeconds}
	if p := d.Spec.ProgressDeadlineSeconds; p != nil {
		v := *p
		o.ProgressDeadlineSeconds = &v
	}
	return o
}

// Restore puts the original settings back on d.
func (o CanaryOriginal) Restore(d *appsv1.Deployment) {
	d.Spec.Strategy = *o.Strategy.DeepCopy()
	d.Spec.MinReadySeconds = o.MinReadySeconds
	d.Spec.ProgressDeadlineSeconds = nil
	if o.ProgressDeadlineSeconds != nil {
		v := *o.ProgressDeadlineSeconds
		d.Spec.ProgressDeadlineSeconds = &v
	}
}

// Deadline is the progress deadline every step is held to: the
// Deployment's own, none when it had none.
func (o CanaryOriginal) Deadline() (time.Duration, bool) {
	p := o.ProgressDeadlineSeconds
	if p == nil || *p == math.MaxInt32 {
		return 0, false
	}
	return time.Duration(*p) * time.Second, true
}

// CanaryPlan is a canary as it was asked and resolved when it started.
type CanaryPlan struct {
	// Change is what the canary rolls out, in kubectl's words
	// ("set image app=registry.local/web:v2").
	Change string `json:"change"`
	// Replicas is the Deployment's size the steps were resolved against.
	Replicas  int32          `json:"replicas"`
	Steps     []CanaryStep   `json:"steps"`
	OnFailure string         `json:"onFailure"`
	Original  CanaryOriginal `json:"original"`
	// Template is the pod-template-hash of the canary's template: the
	// Deployment runs the canary only while its template still hashes to
	// it. A rollback copies a ReplicaSet's annotations onto the Deployment,
	// and a ReplicaSet keeps the ones it was given during an earlier
	// canary: such a stale copy names another template.
	Template string `json:"template"`
	// Gates are the metric gates every step before 100% is judged by, in
	// Argo's AnalysisTemplate vocabulary (a prometheus provider, interval,
	// count, conditions, limits), with those of the templates it named
	// copied in when it started: the plan carries what it judges by, so a
	// template changed later does not change a running canary. Their
	// {{args.*}} are CanaryGateArgs, filled when each is measured.
	Gates []argo.Metric `json:"gates,omitempty"`
	// GateTemplates are, one for each gate, the template it came from
	// ("error-rate" for an AnalysisTemplate, "cluster/latency" for a
	// ClusterAnalysisTemplate, "" when written out): the embedded cluster
	// reads the scenario's series of that template's metric.
	GateTemplates []string `json:"gateTemplates,omitempty"`
}

// Last is the number of the plan's last step (the 100% one).
func (p CanaryPlan) Last() int { return len(p.Steps) }

// Step is step k (1-based); the zero step when k is out of range.
func (p CanaryPlan) Step(k int) CanaryStep {
	if k < 1 || k > len(p.Steps) {
		return CanaryStep{}
	}
	return p.Steps[k-1]
}

// CanaryState is where a canary is.
type CanaryState struct {
	Step  int    `json:"step"`
	Phase string `json:"phase"`
	// Since is when the step began: its progress deadline counts from it.
	Since time.Time `json:"since"`
	// Gate is the failed gate's evidence (pod, reason, count) in phase
	// failed.
	Gate string `json:"gate,omitempty"`
	// Analysis is the step's measurements of the plan's gates, as Argo
	// keeps an AnalysisRun's status (phase, each metric's measurements and
	// counts); a new step starts a new one. Nil when the plan has no gates.
	Analysis *argo.AnalysisRunStatus `json:"analysis,omitempty"`
}

// CanaryLease says which rollscope drives the canary. A holder that has
// not renewed within CanaryLeaseDuration has gone; another may take over.
type CanaryLease struct {
	Holder  string    `json:"holder"`
	Renewed time.Time `json:"renewed"`
}

// CanaryLeaseDuration is how long a lease lasts unrenewed; its holder
// renews it every CanaryLeaseRenew. A console killed mid-canary is
// replaced by the next one after at most this long.
const (
	CanaryLeaseDuration = 30 * time.Second
	CanaryLeaseRenew    = 10 * time.Second
)

// Held by another holder at now.
func (l CanaryLease) HeldByOther(holder string, now time.Time) bool {
	return l.Holder != "" && l.Holder != holder && now.Before(l.Renewed.Add(CanaryLeaseDuration))
}

// Canary is a Deployment's canary as its annotations say.
type Canary struct {
	Plan  CanaryPlan
	State CanaryState
	Lease CanaryLease
}

// HasCanaryAnnotations reports whether d carries any of the canary's
// annotations, stale or not.
func HasCanaryAnnotations(d *appsv1.Deployment) bool {
	for k := range d.Annotations {
		if strings.HasPrefix(k, CanaryAnnotation) {
			return true
		}
	}
	return false
}

// DropCanary removes the canary's annotations and its label from m.
func DropCanary(m *metav1.ObjectMeta) {
	delete(m.Annotations, CanaryAnnotation)
	delete(m.Annotations, canaryStateAnnotation)
	delete(m.Annotations, canaryLeaseAnnotation)
	delete(m.Labels, CanaryLabel)
}

// ReadCanary reads d's canary. ok is false when d runs none; err says
// why annotations that are there cannot be read.
func ReadCanary(d *appsv1.Deployment) (c Canary, ok bool, err error) {
	plan, found := d.Annotations[CanaryAnnotation]
	if !found {
		return Canary{}, false, nil
	}
	if err := json.Unmarshal([]byte(plan), &c.Plan); err != nil {
		return Canary{}, false, fmt.Errorf("annotation %s of deployment/%s is not a canary plan: %w", CanaryAnnotation, d.Name, err)
	}
	if len(c.Plan.Steps) == 0 {
		return Canary{}, false, fmt.Errorf("annotation %s of deployment/%s has no steps", CanaryAnnotation, d.Name)
	}
	if s := d.Annotations[canaryStateAnnotation]; s != "" {
		if err := json.Unmarshal([]byte(s), &c.State); err != nil {
			return Canary{}, false, fmt.Errorf("annotation %s of deployment/%s is not a canary state: %w", canaryStateAnnotation, d.Name, err)
		}
	}
	if l := d.Annotations[canaryLeaseAnnotation]; l != "" {
		// A lease that cannot be read is no lease: whoever drives next
		// writes a good one.
		_ = json.Unmarshal([]byte(l), &c.Lease)
	}
	return c, true, nil
}

// Write stores c on m's annotations, and labels m as a canary's.
func (c Canary) Write(m *metav1.ObjectMeta) {
	if m.Labels == nil {
		m.Labels = map[string]string{}
	}
	m.Labels[CanaryLabel] = "true"
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	a := m.Annotations
	a[CanaryAnnotation] = mustJSON(c.Plan)
	a[canaryStateAnnotation] = mustJSON(c.State)
	if c.Lease.Holder != "" {
		a[canaryLeaseAnnotation] = mustJSON(c.Lease)
	}
}

// mustJSON marshals plain structs of strings, numbers and times, which
// always marshal; a failure would leave "" (no state), never a panic.
func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// CanaryCurrent reports whether c is the canary d runs now and not a stale
// copy: d's template is the canary's, and while a step holds d carries the
// hold's minReadySeconds.
func CanaryCurrent(d *appsv1.Deployment, c Canary) bool {
	if PodTemplateHash(&d.Spec.Template, nil) != c.Plan.Template {
		return false
	}
	if c.State.Phase == CanaryRolling {
		return true
	}
	return d.Spec.MinReadySeconds == CanaryHoldMinReadySeconds
}

// CanaryHeld reports whether d carries a hold's settings.
func CanaryHeld(d *appsv1.Deployment) bool {
	p := d.Spec.ProgressDeadlineSeconds
	return d.Spec.MinReadySeconds == CanaryHoldMinReadySeconds && p != nil && *p == CanaryHoldDeadlineSeconds
}

// CanaryUnheld is d with its own settings: while a canary step holds it, a
// copy carrying the strategy, minReadySeconds and progressDeadlineSeconds
// it had before the canary — what every way out of the canary puts back —
// so that nothing read from it (a forecast's readiness, a deadline) takes
// the hold's values for the Deployment's. d itself when nothing holds it.
func CanaryUnheld(d *appsv1.Deployment) *appsv1.Deployment {
	if !CanaryHeld(d) {
		return d
	}
	c, ok, err := ReadCanary(d)
	if err != nil || !ok {
		return d
	}
	u := d.DeepCopy()
	c.Plan.Original.Restore(u)
	return u
}
