package kind

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/model/manifest"
)

// Each kind's Check: what apps/v1 (or core/v1) validation rejects of it,
// found before the object is sent; the first problem, or nil.

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

func (w replicationController) Check() *manifest.Problem {
	rc := w.ReplicationController
	what := fmt.Sprintf("ReplicationController %q", rc.Name)
	if p := manifest.First(
		manifest.Meta(&rc.ObjectMeta, "ReplicationController", validation.IsDNS1123Subdomain),
		manifest.Replicas(rc.Spec.Replicas, what),
		manifest.NonNegative(rc.Spec.MinReadySeconds, "spec.minReadySeconds", what),
	); p != nil {
		return p
	}
	if rc.Spec.Template == nil {
		return manifest.Problemf("spec", "%s has no spec.template (add the pod template it runs)", what)
	}
	// An empty selector defaults to the template's labels, as the API server does.
	sel := rc.Spec.Selector
	if len(sel) == 0 {
		sel = rc.Spec.Template.Labels
	}
	if len(sel) == 0 {
		return manifest.Problemf("spec", "%s has neither spec.selector nor template labels (label the template, for example app: NAME)", what)
	}
	if !labels.SelectorFromSet(sel).Matches(labels.Set(rc.Spec.Template.Labels)) {
		return manifest.Problemf("spec.template.metadata.labels", "%s: template labels %s do not match spec.selector %s (give the template every label of the selector)",
			what, manifest.LabelText(rc.Spec.Template.Labels), manifest.LabelText(sel))
	}
	return manifest.PodSpec(&rc.Spec.Template.Spec, "spec.template.spec", what)
}
