package memapi

import (
	"reflect"
	"sync"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Every create is validated, and nearly every one is valid: building the
// field paths its errors would name (a few allocations a field, a tenth of
// all the allocations of a 10,000-pod rollout) is wasted on it. A create is
// therefore checked first with no paths — the checks are the same, only the
// labels of their errors are missing — and checked again with paths only
// when something is wrong.

// sub is p.Child(name), and nil for a check without paths.
func sub(p *field.Path, name string, more ...string) *field.Path {
	if p == nil {
		return nil
	}
	return p.Child(name, more...)
}

// at is p.Index(i), and nil for a check without paths.
func at(p *field.Path, i int) *field.Path {
	if p == nil {
		return nil
	}
	return p.Index(i)
}

// key is p.Key(k), and nil for a check without paths.
func key(p *field.Path, k string) *field.Path {
	if p == nil {
		return nil
	}
	return p.Key(k)
}

// metaValid reports whether apivalidation.ValidateObjectMetaAccessor finds
// nothing wrong with m: the same checks, in upstream's functions where they
// take a path only to name errors, without building one.
// TestMetaValidAgreesWithUpstream holds it to upstream's answer.
func metaValid(m metav1.Object, namespaced bool, nameFn apivalidation.ValidateNameFunc) bool {
	if g := m.GetGenerateName(); g != "" && !(isDNSSubdomainFn(nameFn) && dnsSubdomainPrefix(g)) && len(nameFn(g, true)) > 0 {
		return false
	}
	if n := m.GetName(); n == "" || !(isDNSSubdomainFn(nameFn) && dnsSubdomain(n)) && len(nameFn(n, false)) > 0 {
		return false
	}
	if ns := m.GetNamespace(); namespaced {
		if ns == "" || !dnsLabel(ns) && len(apivalidation.ValidateNamespaceName(ns, false)) > 0 {
			return false
		}
	} else if ns != "" {
		return false
	}
	return m.GetGeneration() >= 0 &&
		labelsValid(m.GetLabels()) &&
		len(apivalidation.ValidateAnnotations(m.GetAnnotations(), nil)) == 0 &&
		ownerReferencesValid(m.GetOwnerReferences()) &&
		len(apivalidation.ValidateFinalizers(m.GetFinalizers(), nil)) == 0 &&
		len(metav1validation.ValidateManagedFields(m.GetManagedFields(), nil)) == 0
}

// Upstream checks names and namespaces with regular expressions, a
// twentieth of a create's cost; the names nearly every create carries are
// told valid by hand first (dnsSubdomain, dnsLabel: exactly the expressions,
// TestDNSNamesAgreeWithUpstream), and anything else is left to upstream.

var nameIsDNSSubdomain = reflect.ValueOf(apivalidation.NameIsDNSSubdomain).Pointer()

func isDNSSubdomainFn(fn apivalidation.ValidateNameFunc) bool {
	return reflect.ValueOf(fn).Pointer() == nameIsDNSSubdomain
}

// dnsSubdomainPrefix is NameIsDNSSubdomain(s, true) finding nothing: a
// generateName prefix, whose trailing dash upstream masks by putting an "a"
// in place of its last two characters.
func dnsSubdomainPrefix(s string) bool {
	if len(s) > 1 && s[len(s)-1] == '-' {
		var buf [254]byte
		if len(s)-1 > len(buf) {
			return false // too long: upstream says why
		}
		return dnsSubdomain(append(append(buf[:0], s[:len(s)-2]...), 'a'))
	}
	return dnsSubdomain(s)
}

// dnsSubdomain is validation.IsDNS1123Subdomain finding nothing: at most
// 253 characters, labels joined by dots.
func dnsSubdomain[S ~string | ~[]byte](s S) bool {
	if len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !dnsLabelChars(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// dnsLabel is validation.IsDNS1123Label finding nothing.
func dnsLabel(s string) bool { return len(s) <= 63 && dnsLabelChars(s) }

// dnsLabelChars is upstream's expression of a label, [a-z0-9]([-a-z0-9]*[a-z0-9])?
func dnsLabelChars[S ~string | ~[]byte](s S) bool {
	alnum := func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
	if len(s) == 0 || !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !alnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// labelsValid is metav1validation.ValidateLabels finding nothing. Its label
// checks are regular expressions, and every pod carries the same few labels
// (app, pod-template-hash), so the pairs found valid are remembered: a pure
// function's answers, shared by every cluster of the process.
func labelsValid(labels map[string]string) bool {
	for k, v := range labels {
		if !labelValid(k, v) {
			return false
		}
	}
	return true
}

type labelPair struct{ key, value string }

var validLabels struct {
	sync.Mutex
	pairs map[labelPair]bool
}

func labelValid(k, v string) bool {
	p := labelPair{k, v}
	validLabels.Lock()
	known := validLabels.pairs[p]
	validLabels.Unlock()
	if known {
		return true
	}
	if len(metav1validation.ValidateLabelName(k, nil)) > 0 || len(validation.IsValidLabelValue(v)) > 0 {
		return false
	}
	validLabels.Lock()
	if validLabels.pairs == nil || len(validLabels.pairs) >= 4096 {
		validLabels.pairs = map[labelPair]bool{} // bounded: hashes differ per template
	}
	validLabels.pairs[p] = true
	validLabels.Unlock()
	return true
}

// ownerReferencesValid is apivalidation.ValidateOwnerReferences finding
// nothing, without the string it builds for every controller reference.
func ownerReferencesValid(refs []metav1.OwnerReference) bool {
	controllers := 0
	for i := range refs {
		r := &refs[i]
		gvk := schema.FromAPIVersionAndKind(r.APIVersion, r.Kind)
		if gvk.Version == "" || gvk.Kind == "" || r.Name == "" || r.UID == "" {
			return false
		}
		if _, banned := apivalidation.BannedOwners[gvk]; banned {
			return false
		}
		if r.Controller != nil && *r.Controller {
			controllers++
		}
	}
	return controllers <= 1
}

// deleteOptionsValid reports whether metav1validation.ValidateDeleteOptions
// finds nothing wrong with o — asked of every delete, and it builds three
// paths whatever it finds — for the options nearly every delete sends; any
// other options are left to it.
func deleteOptionsValid(o *metav1.DeleteOptions) bool {
	//nolint:staticcheck // upstream still validates the deprecated OrphanDependents
	if o.OrphanDependents != nil || len(o.DryRun) > 0 || o.IgnoreStoreReadErrorWithClusterBreakingPotential != nil {
		return false
	}
	switch p := o.PropagationPolicy; {
	case p == nil:
		return true
	default:
		return *p == metav1.DeletePropagationForeground || *p == metav1.DeletePropagationBackground || *p == metav1.DeletePropagationOrphan
	}
}
