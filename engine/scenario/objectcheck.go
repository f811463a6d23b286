package scenario

import (
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/model"
)

// maxReplicas bounds replica counts in scenarios: far above any real
// workload, low enough that a typo cannot stall the simulation.
const maxReplicas = 100000

// problem is a validation failure at a field path of a manifest.
type problem struct {
	path, msg string
}

func problemf(path, format string, args ...any) *problem {
	return &problem{path: path, msg: fmt.Sprintf(format, args...)}
}

// checkObject rejects what the API server would reject when the scenario
// creates the object, so that the mistake shows before the run starts.
func checkObject(obj runtime.Object) *problem {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		what := fmt.Sprintf("Deployment %q", o.Name)
		return first(
			checkMeta(&o.ObjectMeta, "Deployment", validation.IsDNS1123Subdomain),
			checkReplicas(o.Spec.Replicas, what),
			checkSelector(o.Spec.Selector, o.Spec.Template.Labels, what),
			checkStrategy(&o.Spec, what),
			checkPodSpec(&o.Spec.Template.Spec, "spec.template.spec", what),
		)
	case *appsv1.ReplicaSet:
		what := fmt.Sprintf("ReplicaSet %q", o.Name)
		return first(
			checkMeta(&o.ObjectMeta, "ReplicaSet", validation.IsDNS1123Subdomain),
			checkReplicas(o.Spec.Replicas, what),
			checkSelector(o.Spec.Selector, o.Spec.Template.Labels, what),
			nonNegative(o.Spec.MinReadySeconds, "spec.minReadySeconds", what),
			checkPodSpec(&o.Spec.Template.Spec, "spec.template.spec", what),
		)
	case *appsv1.DaemonSet:
		what := fmt.Sprintf("DaemonSet %q", o.Name)
		return first(
			checkMeta(&o.ObjectMeta, "DaemonSet", validation.IsDNS1123Subdomain),
			checkSelector(o.Spec.Selector, o.Spec.Template.Labels, what),
			checkPodSpec(&o.Spec.Template.Spec, "spec.template.spec", what),
			checkDaemonSetStrategy(o),
		)
	case *appsv1.StatefulSet:
		return checkStatefulSet(o)
	case *corev1.ReplicationController:
		return checkReplicationController(o)
	case *corev1.Pod:
		return first(
			checkMeta(&o.ObjectMeta, "Pod", validation.IsDNS1123Subdomain),
			checkPodSpec(&o.Spec, "spec", fmt.Sprintf("Pod %q", o.Name)),
		)
	case *policyv1.PodDisruptionBudget:
		return checkDisruptionBudget(o)
	case *corev1.Namespace:
		return checkMeta(&o.ObjectMeta, "Namespace", validation.IsDNS1123Label)
	case *corev1.Service:
		return checkMeta(&o.ObjectMeta, "Service", validation.IsDNS1035Label)
	case *corev1.ConfigMap:
		return checkMeta(&o.ObjectMeta, "ConfigMap", validation.IsDNS1123Subdomain)
	}
	return nil
}

func first(problems ...*problem) *problem {
	for _, p := range problems {
		if p != nil {
			return p
		}
	}
	return nil
}

func checkMeta(m *metav1.ObjectMeta, kind string, validName func(string) []string) *problem {
	if m.Name == "" {
		return problemf("metadata.name", "%s has no metadata.name (every object needs a name: actions and traces refer to objects by name)", kind)
	}
	if msgs := validName(m.Name); len(msgs) > 0 {
		return problemf("metadata.name", "%s name %q is not valid: %s", kind, m.Name, msgs[0])
	}
	if m.Namespace != "" {
		if msgs := validation.IsDNS1123Label(m.Namespace); len(msgs) > 0 {
			return problemf("metadata.namespace", "%s %q has namespace %q, which is not valid: %s", kind, m.Name, m.Namespace, msgs[0])
		}
	}
	return nil
}

func checkReplicas(replicas *int32, what string) *problem {
	if replicas != nil && (*replicas < 0 || *replicas > maxReplicas) {
		return problemf("spec.replicas", "%s has spec.replicas %d (use 0 to %d)", what, *replicas, maxReplicas)
	}
	return nil
}

func nonNegative(v int32, path, what string) *problem {
	if v < 0 {
		return problemf(path, "%s has %s %d (use 0 or more)", what, path, v)
	}
	return nil
}

// checkSelector requires a non-empty selector that matches the pod template:
// a controller whose selector misses its own pods would create them forever.
func checkSelector(sel *metav1.LabelSelector, templateLabels map[string]string, what string) *problem {
	if sel == nil || (len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0) {
		return problemf("spec", "%s has no spec.selector (add selector: {matchLabels: ...} with the template's labels)", what)
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return problemf("spec.selector", "%s has an invalid spec.selector: %v", what, err)
	}
	if !s.Matches(labels.Set(templateLabels)) {
		return problemf("spec.template.metadata.labels", "%s: template labels %s do not match spec.selector %s (give the template every label the selector asks for)",
			what, labelText(templateLabels), s.String())
	}
	return nil
}

func labelText(m map[string]string) string {
	if len(m) == 0 {
		return "(none)"
	}
	return "{" + labels.Set(m).String() + "}"
}

func checkStrategy(spec *appsv1.DeploymentSpec, what string) *problem {
	if p := first(
		nonNegative(spec.MinReadySeconds, "spec.minReadySeconds", what),
		optionalNonNegative(spec.RevisionHistoryLimit, "spec.revisionHistoryLimit", what),
	); p != nil {
		return p
	}
	if d := spec.ProgressDeadlineSeconds; d != nil && *d <= spec.MinReadySeconds {
		return problemf("spec.progressDeadlineSeconds", "%s has progressDeadlineSeconds %d, which must be more than minReadySeconds %d", what, *d, spec.MinReadySeconds)
	}
	switch spec.Strategy.Type {
	case "", appsv1.RollingUpdateDeploymentStrategyType:
	case appsv1.RecreateDeploymentStrategyType:
		if spec.Strategy.RollingUpdate != nil {
			return problemf("spec.strategy.rollingUpdate", "%s sets rollingUpdate with strategy type Recreate (remove rollingUpdate or use type RollingUpdate)", what)
		}
		return nil
	default:
		return problemf("spec.strategy.type", "%s has strategy type %q (use RollingUpdate or Recreate)", what, spec.Strategy.Type)
	}
	ru := spec.Strategy.RollingUpdate
	if ru == nil {
		return nil
	}
	if p := first(
		checkBudget(ru.MaxSurge, "spec.strategy.rollingUpdate.maxSurge", what, false),
		checkBudget(ru.MaxUnavailable, "spec.strategy.rollingUpdate.maxUnavailable", what, true),
	); p != nil {
		return p
	}
	if isZero(ru.MaxSurge) && isZero(ru.MaxUnavailable) {
		return problemf("spec.strategy.rollingUpdate", "%s has maxSurge and maxUnavailable both 0, so the rollout could never progress (raise one of them)", what)
	}
	return nil
}

func optionalNonNegative(v *int32, path, what string) *problem {
	if v == nil {
		return nil
	}
	return nonNegative(*v, path, what)
}

// checkBudget validates a count-or-percentage as the API does.
func checkBudget(v *intstr.IntOrString, path, what string, capAt100 bool) *problem {
	if v == nil {
		return nil
	}
	if v.Type == intstr.Int {
		if v.IntVal < 0 {
			return problemf(path, "%s has %s %d (use 0 or more)", what, path, v.IntVal)
		}
		return nil
	}
	pct, ok := percent(v.StrVal)
	if !ok {
		return problemf(path, "%s has %s %q (use a whole number or a percentage like \"25%%\")", what, path, v.StrVal)
	}
	if capAt100 && pct > 100 {
		return problemf(path, "%s has %s %q (at most 100%%)", what, path, v.StrVal)
	}
	return nil
}

func percent(s string) (int, bool) {
	digits, ok := strings.CutSuffix(s, "%")
	if !ok || digits == "" {
		return 0, false
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' || n > 1_000_000 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func isZero(v *intstr.IntOrString) bool {
	if v == nil {
		return false // unset budgets default to 25%
	}
	if v.Type == intstr.Int {
		return v.IntVal == 0
	}
	pct, ok := percent(v.StrVal)
	return ok && pct == 0
}

func checkReplicationController(rc *corev1.ReplicationController) *problem {
	what := fmt.Sprintf("ReplicationController %q", rc.Name)
	if p := first(
		checkMeta(&rc.ObjectMeta, "ReplicationController", validation.IsDNS1123Subdomain),
		checkReplicas(rc.Spec.Replicas, what),
		nonNegative(rc.Spec.MinReadySeconds, "spec.minReadySeconds", what),
	); p != nil {
		return p
	}
	if rc.Spec.Template == nil {
		return problemf("spec", "%s has no spec.template (add the pod template it runs)", what)
	}
	// An empty selector defaults to the template's labels, as the API server does.
	sel := rc.Spec.Selector
	if len(sel) == 0 {
		sel = rc.Spec.Template.Labels
	}
	if len(sel) == 0 {
		return problemf("spec", "%s has neither spec.selector nor template labels (label the template, for example app: NAME)", what)
	}
	if !labels.SelectorFromSet(sel).Matches(labels.Set(rc.Spec.Template.Labels)) {
		return problemf("spec.template.metadata.labels", "%s: template labels %s do not match spec.selector %s (give the template every label of the selector)",
			what, labelText(rc.Spec.Template.Labels), labelText(sel))
	}
	return checkPodSpec(&rc.Spec.Template.Spec, "spec.template.spec", what)
}

func checkDisruptionBudget(pdb *policyv1.PodDisruptionBudget) *problem {
	what := fmt.Sprintf("PodDisruptionBudget %q", pdb.Name)
	if p := checkMeta(&pdb.ObjectMeta, "PodDisruptionBudget", validation.IsDNS1123Subdomain); p != nil {
		return p
	}
	if pdb.Spec.MinAvailable != nil && pdb.Spec.MaxUnavailable != nil {
		return problemf("spec.maxUnavailable", "%s sets both minAvailable and maxUnavailable (keep one)", what)
	}
	if p := first(
		checkBudget(pdb.Spec.MinAvailable, "spec.minAvailable", what, true),
		checkBudget(pdb.Spec.MaxUnavailable, "spec.maxUnavailable", what, true),
	); p != nil {
		return p
	}
	if pdb.Spec.Selector != nil {
		if _, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector); err != nil {
			return problemf("spec.selector", "%s has an invalid spec.selector: %v", what, err)
		}
	}
	return nil
}

// checkPodSpec checks the containers: the API rejects pods without them, and
// actions find containers by name.
func checkPodSpec(spec *corev1.PodSpec, at, what string) *problem {
	if len(spec.Containers) == 0 {
		return problemf(at, "%s has no containers (add one with a name and an image)", what)
	}
	names := map[string]bool{}
	for _, list := range []struct {
		field      string
		containers []corev1.Container
	}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
		for i := range list.containers {
			c := &list.containers[i]
			cat := fmt.Sprintf("%s.%s[%d]", at, list.field, i)
			if p := checkContainer(c, cat, what); p != nil {
				return p
			}
			if names[c.Name] {
				return problemf(cat+".name", "%s has two containers named %q (container names must be unique)", what, c.Name)
			}
			names[c.Name] = true
		}
	}
	return nil
}

func checkContainer(c *corev1.Container, at, what string) *problem {
	if c.Name == "" {
		return problemf(at, "a container of %s has no name (add name: ...)", what)
	}
	if msgs := validation.IsDNS1123Label(c.Name); len(msgs) > 0 {
		return problemf(at+".name", "container name %q in %s is not valid: %s", c.Name, what, msgs[0])
	}
	if c.Image == "" {
		return problemf(at, "container %q of %s has no image (add image: ...)", c.Name, what)
	}
	if err := model.CheckImage(c.Image); err != nil {
		return problemf(at+".image", "container %q of %s: %v", c.Name, what, err)
	}
	for j, e := range c.Env {
		if err := model.CheckDeclaredEnvName(e.Name); err != nil {
			return problemf(fmt.Sprintf("%s.env[%d].name", at, j), "container %q of %s: %v", c.Name, what, err)
		}
	}
	for _, name := range resourceNames(c.Resources.Requests) {
		q := c.Resources.Requests[name]
		if q.Sign() < 0 {
			return problemf(at+".resources.requests", "container %q of %s requests %s %s (use 0 or more)", c.Name, what, q.String(), name)
		}
		if limit, ok := c.Resources.Limits[name]; ok && q.Cmp(limit) > 0 {
			return problemf(at+".resources.requests", "container %q of %s requests more %s (%s) than its limit (%s) (lower the request or raise the limit)", c.Name, what, name, q.String(), limit.String())
		}
	}
	for _, name := range resourceNames(c.Resources.Limits) {
		q := c.Resources.Limits[name]
		if q.Sign() < 0 {
			return problemf(at+".resources.limits", "container %q of %s has limit %s %s (use 0 or more)", c.Name, what, q.String(), name)
		}
	}
	return nil
}

// resourceNames lists a resource list's names in order, so that the same
// file always reports the same problem first.
func resourceNames(list corev1.ResourceList) []corev1.ResourceName {
	names := make([]corev1.ResourceName, 0, len(list))
	for name := range list {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
