// Package manifest holds the checks rollscope makes of an object before it
// is sent — what the API server would reject, said in one line that names
// the field and what to do. Scenario files are checked with them before a
// run starts, and each workload kind's own checks (model/kind) are built
// from them.
package manifest

import (
	"fmt"
	"math"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/model"
)

// MaxReplicas bounds replica counts in scenarios' actions: what the API
// accepts, spec.replicas being a 32-bit integer. Kubernetes has no lower
// limit; what a rehearsal can hold is the machine's to say
// (engine/embedded.CheckCapacity).
const MaxReplicas = math.MaxInt32

// Problem is a validation failure at a field path of a manifest.
type Problem struct {
	Path, Msg string
}

// Problemf is a problem at path.
func Problemf(path, format string, args ...any) *Problem {
	return &Problem{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// First is the first problem found, nil when there is none.
func First(problems ...*Problem) *Problem {
	for _, p := range problems {
		if p != nil {
			return p
		}
	}
	return nil
}

// Meta checks an object's name and namespace as the API does; kind names
// the object in the message.
func Meta(m *metav1.ObjectMeta, kind string, validName func(string) []string) *Problem {
	if m.Name == "" {
		return Problemf("metadata.name", "%s has no metadata.name (every object needs a name: actions and traces refer to objects by name)", kind)
	}
	if msgs := validName(m.Name); len(msgs) > 0 {
		return Problemf("metadata.name", "%s name %q is not valid: %s", kind, m.Name, msgs[0])
	}
	if m.Namespace != "" {
		if msgs := validation.IsDNS1123Label(m.Namespace); len(msgs) > 0 {
			return Problemf("metadata.namespace", "%s %q has namespace %q, which is not valid: %s", kind, m.Name, m.Namespace, msgs[0])
		}
	}
	return nil
}

// Replicas refuses a negative spec.replicas, as the API does.
func Replicas(replicas *int32, what string) *Problem {
	if replicas != nil && *replicas < 0 {
		return Problemf("spec.replicas", "%s has spec.replicas %d (use 0 or more)", what, *replicas)
	}
	return nil
}

// NonNegative refuses a negative value at path.
func NonNegative(v int32, path, what string) *Problem {
	if v < 0 {
		return Problemf(path, "%s has %s %d (use 0 or more)", what, path, v)
	}
	return nil
}

// Selector requires a non-empty selector that matches the pod template:
// a controller whose selector misses its own pods would create them forever.
func Selector(sel *metav1.LabelSelector, templateLabels map[string]string, what string) *Problem {
	if sel == nil || (len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0) {
		return Problemf("spec", "%s has no spec.selector (add selector: {matchLabels: ...} with the template's labels)", what)
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return Problemf("spec.selector", "%s has an invalid spec.selector: %v", what, err)
	}
	if !s.Matches(labels.Set(templateLabels)) {
		return Problemf("spec.template.metadata.labels", "%s: template labels %s do not match spec.selector %s (give the template every label the selector asks for)",
			what, LabelText(templateLabels), s.String())
	}
	return nil
}

// LabelText writes labels as messages show them: {a=b} or (none).
func LabelText(m map[string]string) string {
	if len(m) == 0 {
		return "(none)"
	}
	return "{" + labels.Set(m).String() + "}"
}

// OptionalNonNegative refuses a negative value at path, when it is set.
func OptionalNonNegative(v *int32, path, what string) *Problem {
	if v == nil {
		return nil
	}
	return NonNegative(*v, path, what)
}

// Budget validates a count-or-percentage as the API does.
func Budget(v *intstr.IntOrString, path, what string, capAt100 bool) *Problem {
	if v == nil {
		return nil
	}
	if v.Type == intstr.Int {
		if v.IntVal < 0 {
			return Problemf(path, "%s has %s %d (use 0 or more)", what, path, v.IntVal)
		}
		return nil
	}
	pct, ok := percent(v.StrVal)
	if !ok {
		return Problemf(path, "%s has %s %q (use a whole number or a percentage like \"25%%\")", what, path, v.StrVal)
	}
	if capAt100 && pct > 100 {
		return Problemf(path, "%s has %s %q (at most 100%%)", what, path, v.StrVal)
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

// IsZero reports whether a count-or-percentage budget is 0 or 0%.
func IsZero(v *intstr.IntOrString) bool {
	if v == nil {
		return false // unset budgets default to 25%
	}
	if v.Type == intstr.Int {
		return v.IntVal == 0
	}
	pct, ok := percent(v.StrVal)
	return ok && pct == 0
}

// PodSpec checks the containers: the API rejects pods without them, and
// actions find containers by name.
func PodSpec(spec *corev1.PodSpec, at, what string) *Problem {
	if len(spec.Containers) == 0 {
		return Problemf(at, "%s has no containers (add one with a name and an image)", what)
	}
	names := map[string]bool{}
	for _, list := range []struct {
		field      string
		containers []corev1.Container
	}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
		for i := range list.containers {
			c := &list.containers[i]
			cat := fmt.Sprintf("%s.%s[%d]", at, list.field, i)
			if p := container(c, cat, what); p != nil {
				return p
			}
			if names[c.Name] {
				return Problemf(cat+".name", "%s has two containers named %q (container names must be unique)", what, c.Name)
			}
			names[c.Name] = true
		}
	}
	return nil
}

func container(c *corev1.Container, at, what string) *Problem {
	if c.Name == "" {
		return Problemf(at, "a container of %s has no name (add name: ...)", what)
	}
	if msgs := validation.IsDNS1123Label(c.Name); len(msgs) > 0 {
		return Problemf(at+".name", "container name %q in %s is not valid: %s", c.Name, what, msgs[0])
	}
	if c.Image == "" {
		return Problemf(at, "container %q of %s has no image (add image: ...)", c.Name, what)
	}
	if err := model.CheckImage(c.Image); err != nil {
		return Problemf(at+".image", "container %q of %s: %v", c.Name, what, err)
	}
	for j, e := range c.Env {
		if err := model.CheckDeclaredEnvName(e.Name); err != nil {
			return Problemf(fmt.Sprintf("%s.env[%d].name", at, j), "container %q of %s: %v", c.Name, what, err)
		}
	}
	for _, name := range resourceNames(c.Resources.Requests) {
		q := c.Resources.Requests[name]
		if q.Sign() < 0 {
			return Problemf(at+".resources.requests", "container %q of %s requests %s %s (use 0 or more)", c.Name, what, q.String(), name)
		}
		if limit, ok := c.Resources.Limits[name]; ok && q.Cmp(limit) > 0 {
			return Problemf(at+".resources.requests", "container %q of %s requests more %s (%s) than its limit (%s) (lower the request or raise the limit)", c.Name, what, name, q.String(), limit.String())
		}
	}
	for _, name := range resourceNames(c.Resources.Limits) {
		q := c.Resources.Limits[name]
		if q.Sign() < 0 {
			return Problemf(at+".resources.limits", "container %q of %s has limit %s %s (use 0 or more)", c.Name, what, q.String(), name)
		}
	}
	return nil
}

// resourceNames lists a resource list's names in order, so that the same
// file always reports the same problem First.
func resourceNames(list corev1.ResourceList) []corev1.ResourceName {
	names := make([]corev1.ResourceName, 0, len(list))
	for name := range list {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
