package memapi

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	workload "rollscope/model/kind"
)

// validateObject checks an object about to be stored by a create (old nil)
// or a spec write, with upstream's field paths and messages. It covers what
// rollscope's users can get wrong, not all of upstream's validation.
func validateObject(k *kind, obj, old runtime.Object) field.ErrorList {
	// A create is checked without field paths first (validpaths.go): only
	// an invalid one, which is rare, pays for them.
	if old == nil && metaValid(metaOf(obj), k.namespaced, k.name) && len(validateSpec(obj, nil)) == 0 {
		return nil
	}
	metaPath := field.NewPath("metadata")
	var errs field.ErrorList
	if old == nil {
		errs = apivalidation.ValidateObjectMetaAccessor(metaOf(obj), k.namespaced, k.name, metaPath)
	} else {
		errs = apivalidation.ValidateObjectMetaAccessorUpdate(metaOf(obj), metaOf(old), metaPath)
	}
	errs = append(errs, validateSpec(obj, field.NewPath("spec"))...)
	if old != nil {
		errs = append(errs, validateImmutableSpec(obj, old)...)
	}
	return errs
}

// validateSpec checks obj's spec, at spec, or — spec nil — only says
// whether anything is wrong.
func validateSpec(obj runtime.Object, spec *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch o := obj.(type) {
	case *appsv1.Deployment:
		errs = append(errs, validateDeploymentSpec(&o.Spec, spec)...)
	case *appsv1.ReplicaSet:
		errs = append(errs, validateReplicas(o.Spec.Replicas, spec)...)
		errs = append(errs, validateSelectedTemplate(o.Spec.Selector, &o.Spec.Template, spec, "")...)
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(o.Spec.MinReadySeconds), spec.Child("minReadySeconds"))...)
	case *corev1.ReplicationController:
		errs = append(errs, validateReplicationControllerSpec(&o.Spec, spec)...)
	case *corev1.Pod:
		errs = append(errs, validatePodSpec(&o.Spec, spec, true)...)
	case *policyv1.PodDisruptionBudget:
		errs = append(errs, validateBudgetSpec(&o.Spec, spec)...)
	default:
		// The other workload kinds (StatefulSets, DaemonSets): replicas
		// where they scale, and a template their selector selects.
		if w, ok := workload.Of(obj); ok {
			if n, scaled := w.Replicas(); scaled {
				errs = append(errs, validateReplicas(&n, spec)...)
			}
			errs = append(errs, validateSelectedTemplate(w.Selector(), w.Template(), spec, "")...)
		}
	}
	return errs
}

// validateUpdate checks a write over old. Status writes only carry status,
// which is the controllers' to get right.
func validateUpdate(k *kind, next, old runtime.Object, subresource string) field.ErrorList {
	if subresource == "status" {
		return nil
	}
	return validateObject(k, next, old)
}

// validateImmutableSpec refuses changes to fields upstream freezes after
// creation: apps/v1 selectors and almost all of a pod's spec.
func validateImmutableSpec(obj, old runtime.Object) field.ErrorList {
	selector := field.NewPath("spec", "selector")
	// apps/v1 workloads freeze their selector; a ReplicationController's
	// (core/v1) may change.
	if w, ok := workload.Of(obj); ok && w.Kind() != workload.ReplicationController {
		was, _ := workload.Of(old)
		return apivalidation.ValidateImmutableField(w.Selector(), was.Selector(), selector)
	}
	switch o := obj.(type) {
	case *appsv1.ReplicaSet:
		return apivalidation.ValidateImmutableField(o.Spec.Selector, old.(*appsv1.ReplicaSet).Spec.Selector, selector)
	case *corev1.Pod:
		return validatePodSpecUpdate(&o.Spec, &old.(*corev1.Pod).Spec)
	}
	return nil
}

func validateReplicas(replicas *int32, spec *field.Path) field.ErrorList {
	if replicas == nil {
		return nil
	}
	return apivalidation.ValidateNonnegativeField(int64(*replicas), spec.Child("replicas"))
}

func validateDeploymentSpec(s *appsv1.DeploymentSpec, spec *field.Path) field.ErrorList {
	errs := validateReplicas(s.Replicas, spec)
	errs = append(errs, validateSelectedTemplate(s.Selector, &s.Template, spec, "deployment")...)
	errs = append(errs, validateDeploymentStrategy(&s.Strategy, spec.Child("strategy"))...)
	errs = append(errs, apivalidation.ValidateNonnegativeField(int64(s.MinReadySeconds), spec.Child("minReadySeconds"))...)
	if s.RevisionHistoryLimit != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*s.RevisionHistoryLimit), spec.Child("revisionHistoryLimit"))...)
	}
	if s.ProgressDeadlineSeconds != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*s.ProgressDeadlineSeconds), spec.Child("progressDeadlineSeconds"))...)
		if *s.ProgressDeadlineSeconds <= s.MinReadySeconds {
			errs = append(errs, field.Invalid(spec.Child("progressDeadlineSeconds"), *s.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateSelectedTemplate checks a workload's selector and that it
// selects the pods of its own template. owner names the kind in the
// "empty selector" message, which upstream only gives for Deployments.
func validateSelectedTemplate(sel *metav1.LabelSelector, tpl *corev1.PodTemplateSpec, spec *field.Path, owner string) field.ErrorList {
	var errs field.ErrorList
	selPath := spec.Child("selector")
	if sel == nil {
		errs = append(errs, field.Required(selPath, ""))
	} else {
		errs = append(errs, metav1validation.ValidateLabelSelector(sel, metav1validation.LabelSelectorValidationOptions{}, selPath)...)
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			msg := "empty selector is invalid for " + owner
			if owner == "" {
				msg = "empty selector is invalid"
			}
			errs = append(errs, field.Invalid(selPath, sel, msg))
		}
	}
	selector, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return append(errs, field.Invalid(selPath, sel, "invalid label selector"))
	}
	tplPath := spec.Child("template")
	if !selector.Empty() && !selector.Matches(labels.Set(tpl.Labels)) {
		errs = append(errs, field.Invalid(tplPath.Child("metadata", "labels"), tpl.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, validateTemplate(tpl, tplPath)...)
	return errs
}

// validateTemplate checks the pod template of a workload, whose pods must
// always restart.
func validateTemplate(tpl *corev1.PodTemplateSpec, tplPath *field.Path) field.ErrorList {
	errs := metav1validation.ValidateLabels(tpl.Labels, tplPath.Child("metadata", "labels"))
	errs = append(errs, apivalidation.ValidateAnnotations(tpl.Annotations, tplPath.Child("metadata", "annotations"))...)
	errs = append(errs, validatePodSpec(&tpl.Spec, tplPath.Child("spec"), false)...)
	if tpl.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(tplPath.Child("spec", "restartPolicy"), tpl.Spec.RestartPolicy, []string{string(corev1.RestartPolicyAlways)}))
	}
	if tpl.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(tplPath.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicaSet is not Supported"))
	}
	return errs
}

func validateDeploymentStrategy(s *appsv1.DeploymentStrategy, p *field.Path) field.ErrorList {
	switch s.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is '"+string(appsv1.RecreateDeploymentStrategyType)+"'")}
		}
	case appsv1.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(p.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdate(s.RollingUpdate, p.Child("rollingUpdate"))
	default:
		return field.ErrorList{field.NotSupported(p, *s, []string{string(appsv1.RecreateDeploymentStrategyType), string(appsv1.RollingUpdateDeploymentStrategyType)})}
	}
	return nil
}

// validateRollingUpdate checks maxSurge and maxUnavailable as upstream
// does: non-negative integers or percentages, not both zero, and
// maxUnavailable at most 100%.
func validateRollingUpdate(r *appsv1.RollingUpdateDeployment, p *field.Path) field.ErrorList {
	unavailable, surge := intOrZero(r.MaxUnavailable), intOrZero(r.MaxSurge)
	errs := validateIntOrPercent(unavailable, p.Child("maxUnavailable"))
	errs = append(errs, validateIntOrPercent(surge, p.Child("maxSurge"))...)
	if intOrPercentValue(unavailable) == 0 && intOrPercentValue(surge) == 0 {
		errs = append(errs, field.Invalid(p.Child("maxUnavailable"), unavailable, "may not be 0 when `maxSurge` is 0"))
	}
	errs = append(errs, validateAtMost100Percent(unavailable, p.Child("maxUnavailable"))...)
	return errs
}

func intOrZero(v *intstr.IntOrString) intstr.IntOrString {
	if v == nil {
		return intstr.FromInt32(0)
	}
	return *v
}

func validateIntOrPercent(v intstr.IntOrString, p *field.Path) field.ErrorList {
	switch v.Type {
	case intstr.String:
		var errs field.ErrorList
		for _, msg := range validation.IsValidPercent(v.StrVal) {
			errs = append(errs, field.Invalid(p, v, msg))
		}
		return errs
	case intstr.Int:
		return apivalidation.ValidateNonnegativeField(int64(v.IntValue()), p)
	default:
		return field.ErrorList{field.Invalid(p, v, "must be an integer or percentage (e.g '5%')")}
	}
}

// percentValue returns the number of a valid percentage.
func percentValue(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String || len(validation.IsValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, err := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, err == nil
}

func intOrPercentValue(v intstr.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	return v.IntValue()
}

func validateAtMost100Percent(v intstr.IntOrString, p *field.Path) field.ErrorList {
	if n, ok := percentValue(v); ok && n > 100 {
		return field.ErrorList{field.Invalid(p, v, "must not be greater than 100%")}
	}
	return nil
}

func validateReplicationControllerSpec(s *corev1.ReplicationControllerSpec, spec *field.Path) field.ErrorList {
	errs := validateReplicas(s.Replicas, spec)
	errs = append(errs, apivalidation.ValidateNonnegativeField(int64(s.MinReadySeconds), spec.Child("minReadySeconds"))...)
	selPath := spec.Child("selector")
	if len(s.Selector) == 0 {
		errs = append(errs, field.Required(selPath, ""))
	} else {
		errs = append(errs, metav1validation.ValidateLabels(s.Selector, selPath)...)
	}
	tplPath := spec.Child("template")
	if s.Template == nil {
		return append(errs, field.Required(tplPath, ""))
	}
	if sel := labels.Set(s.Selector).AsSelector(); !sel.Empty() && !sel.Matches(labels.Set(s.Template.Labels)) {
		errs = append(errs, field.Invalid(tplPath.Child("metadata", "labels"), s.Template.Labels, "`selector` does not match template `labels`"))
	}
	return append(errs, validateTemplate(s.Template, tplPath)...)
}

func validateBudgetSpec(s *policyv1.PodDisruptionBudgetSpec, spec *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.MinAvailable != nil && s.MaxUnavailable != nil {
		errs = append(errs, field.Invalid(spec, *s, "minAvailable and maxUnavailable cannot be both set"))
	}
	if s.MinAvailable != nil {
		errs = append(errs, validateIntOrPercent(*s.MinAvailable, spec.Child("minAvailable"))...)
		errs = append(errs, validateAtMost100Percent(*s.MinAvailable, spec.Child("minAvailable"))...)
	}
	if s.MaxUnavailable != nil {
		errs = append(errs, validateIntOrPercent(*s.MaxUnavailable, spec.Child("maxUnavailable"))...)
		errs = append(errs, validateAtMost100Percent(*s.MaxUnavailable, spec.Child("maxUnavailable"))...)
	}
	errs = append(errs, metav1validation.ValidateLabelSelector(s.Selector, metav1validation.LabelSelectorValidationOptions{}, spec.Child("selector"))...)
	if p := s.UnhealthyPodEvictionPolicy; p != nil && *p != policyv1.IfHealthyBudget && *p != policyv1.AlwaysAllow {
		errs = append(errs, field.NotSupported(spec.Child("unhealthyPodEvictionPolicy"), *p, []string{string(policyv1.AlwaysAllow), string(policyv1.IfHealthyBudget)}))
	}
	return errs
}
