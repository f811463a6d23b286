package kind

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/model"
	"rollscope/model/manifest"
)

// A Deployment as the registry reads it: through model's rules for
// Deployments, which the engine's controller shares.
type deployment struct{ *appsv1.Deployment }

func (w deployment) Check() *manifest.Problem {
	o := w.Deployment
	what := fmt.Sprintf("Deployment %q", o.Name)
	return manifest.First(
		manifest.Meta(&o.ObjectMeta, "Deployment", validation.IsDNS1123Subdomain),
		manifest.Replicas(o.Spec.Replicas, what),
		manifest.Selector(o.Spec.Selector, o.Spec.Template.Labels, what),
		checkDeploymentStrategy(&o.Spec, what),
		manifest.PodSpec(&o.Spec.Template.Spec, "spec.template.spec", what),
	)
}

func checkDeploymentStrategy(spec *appsv1.DeploymentSpec, what string) *manifest.Problem {
	if p := manifest.First(
		manifest.NonNegative(spec.MinReadySeconds, "spec.minReadySeconds", what),
		manifest.OptionalNonNegative(spec.RevisionHistoryLimit, "spec.revisionHistoryLimit", what),
	); p != nil {
		return p
	}
	if d := spec.ProgressDeadlineSeconds; d != nil && *d <= spec.MinReadySeconds {
		return manifest.Problemf("spec.progressDeadlineSeconds", "%s has progressDeadlineSeconds %d, which must be more than minReadySeconds %d", what, *d, spec.MinReadySeconds)
	}
	switch spec.Strategy.Type {
	case "", appsv1.RollingUpdateDeploymentStrategyType:
	case appsv1.RecreateDeploymentStrategyType:
		if spec.Strategy.RollingUpdate != nil {
			return manifest.Problemf("spec.strategy.rollingUpdate", "%s sets rollingUpdate with strategy type Recreate (remove rollingUpdate or use type RollingUpdate)", what)
		}
		return nil
	default:
		return manifest.Problemf("spec.strategy.type", "%s has strategy type %q (use RollingUpdate or Recreate)", what, spec.Strategy.Type)
	}
	ru := spec.Strategy.RollingUpdate
	if ru == nil {
		return nil
	}
	if p := manifest.First(
		manifest.Budget(ru.MaxSurge, "spec.strategy.rollingUpdate.maxSurge", what, false),
		manifest.Budget(ru.MaxUnavailable, "spec.strategy.rollingUpdate.maxUnavailable", what, true),
	); p != nil {
		return p
	}
	if manifest.IsZero(ru.MaxSurge) && manifest.IsZero(ru.MaxUnavailable) {
		return manifest.Problemf("spec.strategy.rollingUpdate", "%s has maxSurge and maxUnavailable both 0, so the rollout could never progress (raise one of them)", what)
	}
	return nil
}

func (w deployment) Copy(m metav1.ObjectMeta) Workload {
	return deployment{&appsv1.Deployment{ObjectMeta: m, Spec: *w.Spec.DeepCopy()}}
}

// Figures are the workload's progress figures as the fleet compares them to
// tell whether a rollout moved: its generations and status counts, two to a
// word where they are 32-bit.

func (w deployment) Figures() [4]int64 {
	s := w.Status
	return [4]int64{w.Generation<<32 | s.ObservedGeneration, int64(s.Replicas), int64(s.UpdatedReplicas)<<32 | int64(s.ReadyReplicas), int64(s.AvailableReplicas)}
}

// TraceLine is a Deployment's counts as `kubectl get deployments` shows
// them. The trace writes a Deployment a line of its own, which adds its
// conditions, its pause and its guided canary.
func (w deployment) TraceLine() TraceLine {
	spec, st := model.DesiredReplicas(w.Deployment), w.Status
	return TraceLine{
		Counts: [5]int32{spec, st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.UpdatedReplicas}, Counted: 5,
		Fields: traceFields(countField("spec", spec), countField("replicas", st.Replicas), countField("updated", st.UpdatedReplicas),
			countField("ready", st.ReadyReplicas), countField("available", st.AvailableReplicas), countField("unavailable", st.UnavailableReplicas)),
	}
}

// Settled is the part of a Deployment's settling its object tells: the
// controller has seen the latest spec, and the rollout is complete or has
// failed its progress deadline. A paused one, or one under a guided canary,
// settles by its ReplicaSets, which a run's end weighs as well.
func (w deployment) Settled() bool {
	d := w.Deployment
	if d.Status.ObservedGeneration < d.Generation {
		return false
	}
	if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c != nil && c.Reason == "ProgressDeadlineExceeded" {
		return true
	}
	return model.DeploymentComplete(d, &d.Status)
}

func (w deployment) MinReadySeconds() int32 { return w.Spec.MinReadySeconds }

func (deployment) OnDelete() bool { return false }

func (w deployment) Surge() int32 { return model.MaxSurge(w.Deployment) }

func (w deployment) At(size int32) Workload {
	d := *w.Deployment
	d.Spec.Replicas = &size
	return deployment{&d}
}

func (deployment) Kind() Kind                          { return Deployment }
func (w deployment) Template() *corev1.PodTemplateSpec { return &w.Spec.Template }
func (w deployment) Selector() *metav1.LabelSelector   { return w.Spec.Selector }
func (w deployment) Replicas() (int32, bool)           { return specReplicas(w.Spec.Replicas) }
func (w deployment) Object() any                       { return w.Deployment }
func (w deployment) Revisions() (current, update string) {
	r := w.Annotations[model.RevisionAnnotation]
	return r, r
}
func (w deployment) RolloutStatus() (string, bool, error) {
	return model.RolloutStatus(w.Deployment, 0)
}
