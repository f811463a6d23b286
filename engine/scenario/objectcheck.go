package scenario

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/model/argo"
	"rollscope/model/kind"
	"rollscope/model/manifest"
)

// maxReplicas bounds replica counts in scenarios (manifest.MaxReplicas).
const maxReplicas = manifest.MaxReplicas

// problem is a validation failure at a field path of a manifest.
type problem = manifest.Problem

// checkObject rejects what the API server would reject when the scenario
// creates the object, so that the mistake shows before the run starts. A
// workload is checked by its kind (model/kind).
func checkObject(obj runtime.Object) *problem {
	if w, ok := kind.Of(obj); ok {
		return manifest.First(w.Check(), unmodelled(obj))
	}
	switch o := obj.(type) {
	case *appsv1.ReplicaSet:
		what := fmt.Sprintf("ReplicaSet %q", o.Name)
		return manifest.First(
			manifest.Meta(&o.ObjectMeta, "ReplicaSet", validation.IsDNS1123Subdomain),
			manifest.Replicas(o.Spec.Replicas, what),
			manifest.Selector(o.Spec.Selector, o.Spec.Template.Labels, what),
			manifest.NonNegative(o.Spec.MinReadySeconds, "spec.minReadySeconds", what),
			manifest.PodSpec(&o.Spec.Template.Spec, "spec.template.spec", what),
		)
	case *corev1.Pod:
		return manifest.First(
			manifest.Meta(&o.ObjectMeta, "Pod", validation.IsDNS1123Subdomain),
			manifest.PodSpec(&o.Spec, "spec", fmt.Sprintf("Pod %q", o.Name)),
		)
	case *policyv1.PodDisruptionBudget:
		return checkDisruptionBudget(o)
	case *corev1.Namespace:
		return manifest.Meta(&o.ObjectMeta, "Namespace", validation.IsDNS1123Label)
	case *corev1.Service:
		return manifest.Meta(&o.ObjectMeta, "Service", validation.IsDNS1035Label)
	case *corev1.ConfigMap:
		return manifest.Meta(&o.ObjectMeta, "ConfigMap", validation.IsDNS1123Subdomain)
	case *argo.AnalysisTemplate:
		return checkAnalysisTemplate(o)
	}
	return nil
}

// unmodelled refuses an Argo Rollout whose shape the embedded Argo
// controller does not run: played, it would sit still and say nothing true.
func unmodelled(obj runtime.Object) *problem {
	ro, ok := obj.(*argo.Rollout)
	if !ok {
		return nil
	}
	if path, what := argo.Unmodelled(ro); path != "" {
		return manifest.Problemf(path, "Rollout %q has %s (%s), which rollscope's embedded Argo controller does not run (it runs %s)", ro.Name, what, path, argo.Modelled)
	}
	return nil
}

// checkAnalysisTemplate refuses a template whose metrics the embedded
// AnalysisRun controller cannot take as Argo's would.
func checkAnalysisTemplate(t *argo.AnalysisTemplate) *problem {
	what := fmt.Sprintf("AnalysisTemplate %q", t.Name)
	if p := manifest.Meta(&t.ObjectMeta, "AnalysisTemplate", validation.IsDNS1123Subdomain); p != nil {
		return p
	}
	switch {
	case len(t.Spec.Metrics) == 0:
		return manifest.Problemf("spec.metrics", "%s has no metrics (add spec.metrics with a name and a successCondition)", what)
	case len(t.Spec.DryRun) > 0:
		return manifest.Problemf("spec.dryRun", "%s has a dryRun, which rollscope's embedded analysis does not run (remove it)", what)
	case len(t.Spec.MeasurementRetention) > 0:
		return manifest.Problemf("spec.measurementRetention", "%s has a measurementRetention, which rollscope's embedded analysis does not run (remove it)", what)
	}
	seen := map[string]bool{}
	for i, m := range t.Spec.Metrics {
		at := fmt.Sprintf("spec.metrics[%d]", i)
		switch {
		case m.Name == "":
			return manifest.Problemf(at, "%s: %s has no name (add name:)", what, at)
		case seen[m.Name]:
			return manifest.Problemf(at+".name", "%s has two metrics named %q (names must be unique)", what, m.Name)
		}
		seen[m.Name] = true
		for _, d := range []struct{ field, v string }{{"interval", m.Interval}, {"initialDelay", m.InitialDelay}} {
			if d.v == "" {
				continue
			}
			if _, err := time.ParseDuration(d.v); err != nil {
				return manifest.Problemf(at+"."+d.field, "%s: %s.%s %q is not a duration (write it like \"30s\" or \"5m\")", what, at, d.field, d.v)
			}
		}
	}
	return nil
}

func checkDisruptionBudget(pdb *policyv1.PodDisruptionBudget) *problem {
	what := fmt.Sprintf("PodDisruptionBudget %q", pdb.Name)
	if p := manifest.Meta(&pdb.ObjectMeta, "PodDisruptionBudget", validation.IsDNS1123Subdomain); p != nil {
		return p
	}
	if pdb.Spec.MinAvailable != nil && pdb.Spec.MaxUnavailable != nil {
		return manifest.Problemf("spec.maxUnavailable", "%s sets both minAvailable and maxUnavailable (keep one)", what)
	}
	if p := manifest.First(
		manifest.Budget(pdb.Spec.MinAvailable, "spec.minAvailable", what, true),
		manifest.Budget(pdb.Spec.MaxUnavailable, "spec.maxUnavailable", what, true),
	); p != nil {
		return p
	}
	if pdb.Spec.Selector != nil {
		if _, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector); err != nil {
			return manifest.Problemf("spec.selector", "%s has an invalid spec.selector: %v", what, err)
		}
	}
	return nil
}
