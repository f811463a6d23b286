package memapi

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePodSpec checks the parts of a pod spec that people write by hand:
// containers, their names, images, ports, environment and resources, and
// the restart and DNS policies. isPod adds the checks upstream makes on Pod
// objects only.
func validatePodSpec(s *corev1.PodSpec, p *field.Path, isPod bool) field.ErrorList {
	names := map[string]bool{}
	var errs field.ErrorList
	if len(s.Containers) == 0 {
		errs = append(errs, field.Required(sub(p, "containers"), ""))
	}
	errs = append(errs, validateContainers(s.Containers, sub(p, "containers"), names, isPod)...)
	errs = append(errs, validateContainers(s.InitContainers, sub(p, "initContainers"), names, isPod)...)
	switch s.RestartPolicy {
	case corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
	case "":
		errs = append(errs, field.Required(sub(p, "restartPolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(sub(p, "restartPolicy"), s.RestartPolicy, []string{string(corev1.RestartPolicyAlways), string(corev1.RestartPolicyOnFailure), string(corev1.RestartPolicyNever)}))
	}
	switch s.DNSPolicy {
	case corev1.DNSClusterFirstWithHostNet, corev1.DNSClusterFirst, corev1.DNSDefault, corev1.DNSNone:
	case "":
		errs = append(errs, field.Required(sub(p, "dnsPolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(sub(p, "dnsPolicy"), s.DNSPolicy, []string{string(corev1.DNSClusterFirstWithHostNet), string(corev1.DNSClusterFirst), string(corev1.DNSDefault), string(corev1.DNSNone)}))
	}
	return errs
}

func validateContainers(list []corev1.Container, p *field.Path, names map[string]bool, isPod bool) field.ErrorList {
	var errs field.ErrorList
	for i := range list {
		c := &list[i]
		cp := at(p, i)
		switch {
		case c.Name == "":
			errs = append(errs, field.Required(sub(cp, "name"), ""))
		case names[c.Name]:
			errs = append(errs, field.Duplicate(sub(cp, "name"), c.Name))
		default:
			for _, msg := range validation.IsDNS1123Label(c.Name) {
				errs = append(errs, field.Invalid(sub(cp, "name"), c.Name, msg))
			}
		}
		names[c.Name] = true
		if c.Image == "" {
			errs = append(errs, field.Required(sub(cp, "image"), ""))
		} else if isPod && strings.TrimSpace(c.Image) != c.Image {
			errs = append(errs, field.Invalid(sub(cp, "image"), c.Image, "must not have leading or trailing whitespace"))
		}
		errs = append(errs, validatePorts(c.Ports, sub(cp, "ports"))...)
		errs = append(errs, validateEnv(c.Env, sub(cp, "env"))...)
		errs = append(errs, validateResources(&c.Resources, sub(cp, "resources"))...)
	}
	return errs
}

var supportedProtocols = []string{string(corev1.ProtocolSCTP), string(corev1.ProtocolTCP), string(corev1.ProtocolUDP)}

func validatePorts(ports []corev1.ContainerPort, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, port := range ports {
		pp := at(p, i)
		if port.Name != "" {
			msgs := validation.IsValidPortName(port.Name)
			for _, msg := range msgs {
				errs = append(errs, field.Invalid(sub(pp, "name"), port.Name, msg))
			}
			if len(msgs) == 0 && names[port.Name] {
				errs = append(errs, field.Duplicate(sub(pp, "name"), port.Name))
			}
			names[port.Name] = true
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.Required(sub(pp, "containerPort"), ""))
		} else {
			for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, field.Invalid(sub(pp, "containerPort"), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range validation.IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, field.Invalid(sub(pp, "hostPort"), port.HostPort, msg))
			}
		}
		if port.Protocol == "" {
			errs = append(errs, field.Required(sub(pp, "protocol"), ""))
		} else if !slices.Contains(supportedProtocols, string(port.Protocol)) {
			errs = append(errs, field.NotSupported(sub(pp, "protocol"), port.Protocol, supportedProtocols))
		}
	}
	return errs
}

// validateEnv checks environment variable names with the classic rule
// ([-._a-zA-Z][-._a-zA-Z0-9]*), which rollscope asks for even though
// servers since 1.34 accept any printable ASCII name without '='.
func validateEnv(env []corev1.EnvVar, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range env {
		np := sub(at(p, i), "name")
		if ev.Name == "" {
			errs = append(errs, field.Required(np, ""))
			continue
		}
		for _, msg := range validation.IsEnvVarName(ev.Name) {
			errs = append(errs, field.Invalid(np, ev.Name, msg))
		}
	}
	return errs
}

func validateResources(r *corev1.ResourceRequirements, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	limit := func(name corev1.ResourceName) {
		if q := r.Limits[name]; q.Sign() < 0 {
			errs = append(errs, field.Invalid(key(sub(p, "limits"), string(name)), q.String(), "must be greater than or equal to 0"))
		}
	}
	request := func(name corev1.ResourceName) {
		q := r.Requests[name]
		rp := key(sub(p, "requests"), string(name))
		if q.Sign() < 0 {
			errs = append(errs, field.Invalid(rp, q.String(), "must be greater than or equal to 0"))
		}
		if lim, ok := r.Limits[name]; ok && q.Cmp(lim) > 0 {
			errs = append(errs, field.Invalid(rp, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, lim.String())))
		}
	}
	if p == nil {
		// A check without paths only asks whether anything is wrong: the
		// errors' order does not matter, so the names are not sorted.
		for name := range r.Limits {
			limit(name)
		}
		for name := range r.Requests {
			request(name)
		}
		return errs
	}
	for _, name := range sortedResourceNames(r.Limits) {
		limit(name)
	}
	for _, name := range sortedResourceNames(r.Requests) {
		request(name)
	}
	return errs
}

func sortedResourceNames(list corev1.ResourceList) []corev1.ResourceName {
	names := make([]corev1.ResourceName, 0, len(list))
	for n := range list {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// podUpdatableFields is how upstream lists what a pod update may change.
const podUpdatableFields = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`," +
	"`spec.tolerations` (only additions to existing tolerations)," +
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// validatePodSpecUpdate refuses pod updates that change more than upstream
// allows: images, the active deadline, added tolerations, removed
// scheduling gates. Placing a pod on a node goes through pods/binding.
func validatePodSpecUpdate(next, old *corev1.PodSpec) field.ErrorList {
	specPath := field.NewPath("spec")
	if len(next.Containers) != len(old.Containers) || len(next.InitContainers) != len(old.InitContainers) {
		return field.ErrorList{field.Forbidden(specPath.Child("containers"), "pod updates may not add or remove containers")}
	}
	m := next.DeepCopy()
	for i := range m.Containers {
		m.Containers[i].Image = old.Containers[i].Image
	}
	for i := range m.InitContainers {
		m.InitContainers[i].Image = old.InitContainers[i].Image
	}
	m.ActiveDeadlineSeconds = old.ActiveDeadlineSeconds
	if containsAll(m.Tolerations, old.Tolerations) {
		m.Tolerations = old.Tolerations
	}
	if containsAll(old.SchedulingGates, m.SchedulingGates) {
		m.SchedulingGates = old.SchedulingGates
	}
	if g := old.TerminationGracePeriodSeconds; g != nil && *g < 0 && m.TerminationGracePeriodSeconds != nil && *m.TerminationGracePeriodSeconds == 1 {
		m.TerminationGracePeriodSeconds = old.TerminationGracePeriodSeconds
	}
	if !apiequality.Semantic.DeepEqual(*m, *old) {
		return field.ErrorList{field.Forbidden(specPath, "pod updates may not change fields other than "+podUpdatableFields)}
	}
	return nil
}

// containsAll reports whether every element of sub is in all.
func containsAll[T any](all, sub []T) bool {
	for _, s := range sub {
		if !slices.ContainsFunc(all, func(a T) bool { return apiequality.Semantic.DeepEqual(a, s) }) {
			return false
		}
	}
	return true
}
