package memapi

import (
	"math/rand"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func pick[T any](r *rand.Rand, of ...T) T { return of[r.Intn(len(of))] }

// A create skips upstream's metadata validation when metaValid says there is
// nothing wrong: it must say so exactly when upstream finds nothing.
func TestMetaValidAgreesWithUpstream(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	yes, no := true, false
	refs := func() []metav1.OwnerReference {
		var out []metav1.OwnerReference
		for range r.Intn(3) {
			out = append(out, metav1.OwnerReference{
				APIVersion: pick(r, "apps/v1", "apps/v1", "apps/v1", "v1", "", "apps/", "/v1"),
				Kind:       pick(r, "ReplicaSet", "ReplicaSet", "ReplicaSet", "", "Node", "Namespace"),
				Name:       pick(r, "web", "web", "web", ""),
				UID:        pick[types.UID](r, "u-1", "u-1", "u-1", ""),
				Controller: pick(r, &yes, &no, nil),
			})
		}
		return out
	}
	big := map[string]string{"big": strings.Repeat("x", apivalidation.TotalAnnotationSizeLimitB)}
	// mostly gives the first (valid) value nine times in ten, so that
	// objects with one thing wrong are common.
	mostly := func(first any, rest ...any) any {
		if r.Intn(10) > 0 {
			return first
		}
		return pick(r, rest...)
	}
	valid, invalid := 0, 0
	for i := range 20000 {
		m := &metav1.ObjectMeta{
			Name:            mostly("web-7d9c-x2x4z", "", "Web", "a.b", "-a", strings.Repeat("a", 254), "a/b", "..", "x_y", "a").(string),
			GenerateName:    mostly("", "web-", "Web-", "a/").(string),
			Namespace:       mostly("default", "", "Default", "a.b", strings.Repeat("n", 64)).(string),
			Generation:      mostly(int64(0), int64(3), int64(-1)).(int64),
			Labels:          mostly(map[string]string{"app": "web"}, map[string]string(nil), map[string]string{"app": "-bad-"}, map[string]string{"a/b/c": "x"}).(map[string]string),
			Annotations:     mostly(map[string]string(nil), map[string]string{"rollscope.dev/x": "1"}, map[string]string{"Upper/Case": "1"}, map[string]string{"no spaces": "1"}, big).(map[string]string),
			Finalizers:      mostly([]string(nil), []string{"kubernetes.io/pvc-protection"}, []string{"bad finalizer"}, []string{metav1.FinalizerOrphanDependents, metav1.FinalizerDeleteDependents}).([]string),
			OwnerReferences: refs(),
		}
		if i%50 == 0 {
			m.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: pick(r, "kubectl", ""), Operation: pick(r, metav1.ManagedFieldsOperationApply, "Patch")}}
		}
		namespaced := pick(r, true, true, false)
		nameFn := pick(r, apivalidation.NameIsDNSSubdomain, path.ValidatePathSegmentName, apivalidation.NameIsDNS1035Label)
		errs := apivalidation.ValidateObjectMetaAccessor(m, namespaced, nameFn, field.NewPath("metadata"))
		if got := metaValid(m, namespaced, nameFn); got != (len(errs) == 0) {
			t.Fatalf("metaValid = %v, upstream found %v, for %#v (namespaced %v)", got, errs, m, namespaced)
		}
		if len(errs) == 0 {
			valid++
		} else {
			invalid++
		}
	}
	if valid < 100 || invalid < 100 {
		t.Fatalf("the cases are lopsided: %d valid, %d invalid", valid, invalid)
	}
}

// A delete skips upstream's options validation when deleteOptionsValid says
// so: never for options upstream refuses.
func TestDeleteOptionsValidAgreesWithUpstream(t *testing.T) {
	yes, no := true, false
	var zero int64
	policies := []*metav1.DeletionPropagation{nil, ptrTo(metav1.DeletePropagationForeground), ptrTo(metav1.DeletePropagationBackground), ptrTo(metav1.DeletePropagationOrphan), ptrTo(metav1.DeletionPropagation("Sideways"))}
	for _, orphan := range []*bool{nil, &yes, &no} {
		for _, policy := range policies {
			for _, dryRun := range [][]string{nil, {metav1.DryRunAll}, {"Some"}} {
				for _, ignore := range []*bool{nil, &yes, &no} {
					for _, grace := range []*int64{nil, &zero} {
						o := &metav1.DeleteOptions{OrphanDependents: orphan, PropagationPolicy: policy, DryRun: dryRun, IgnoreStoreReadErrorWithClusterBreakingPotential: ignore, GracePeriodSeconds: grace}
						if errs := metav1validation.ValidateDeleteOptions(o); deleteOptionsValid(o) && len(errs) > 0 {
							t.Errorf("deleteOptionsValid passed %+v, which upstream refuses: %v", o, errs)
						}
					}
				}
			}
		}
	}
	if !deleteOptionsValid(&metav1.DeleteOptions{}) || !deleteOptionsValid(&metav1.DeleteOptions{GracePeriodSeconds: &zero}) {
		t.Error("the options every delete sends are not taken as valid")
	}
}

// Checked without paths, a spec must be found wrong exactly when it is wrong
// with them, and by as many errors.
func TestSpecWithoutPathsFindsWhatPathsFind(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	breaks := []func(p *corev1.Pod){
		func(p *corev1.Pod) { p.Spec.Containers = nil },
		func(p *corev1.Pod) { p.Spec.Containers[0].Name = "" },
		func(p *corev1.Pod) { p.Spec.Containers[0].Name = "Bad_Name" },
		func(p *corev1.Pod) { p.Spec.Containers = append(p.Spec.Containers, p.Spec.Containers[0]) },
		func(p *corev1.Pod) { p.Spec.Containers[0].Image = "" },
		func(p *corev1.Pod) { p.Spec.Containers[0].Image = " nginx" },
		func(p *corev1.Pod) {
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: "TCP"}, {Name: "http", ContainerPort: 70000, Protocol: "XTP"}}
		},
		func(p *corev1.Pod) { p.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "1BAD"}, {Name: ""}} },
		func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources = corev1.ResourceRequirements{
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("-1")},
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("-2Mi")},
			}
		},
		func(p *corev1.Pod) { p.Spec.RestartPolicy = "" },
		func(p *corev1.Pod) { p.Spec.RestartPolicy = "Sometimes" },
		func(p *corev1.Pod) { p.Spec.DNSPolicy = "" },
		func(p *corev1.Pod) { p.Spec.DNSPolicy = "Anywhere" },
		func(p *corev1.Pod) {
			p.Spec.InitContainers = []corev1.Container{{Name: p.Spec.Containers[0].Name, Image: "busybox"}}
		},
	}
	for range 2000 {
		p := &corev1.Pod{Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: "TCP"}},
				Env:   []corev1.EnvVar{{Name: "MODE", Value: "x"}},
				Resources: corev1.ResourceRequirements{
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("1Gi")},
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
				}}},
			RestartPolicy: corev1.RestartPolicyAlways, DNSPolicy: corev1.DNSClusterFirst,
		}}
		for range r.Intn(3) {
			if len(p.Spec.Containers) > 0 { // the breaks but the first read a container
				pick(r, breaks...)(p)
			}
		}
		with, without := validateSpec(p, field.NewPath("spec")), validateSpec(p, nil)
		if len(with) != len(without) {
			t.Fatalf("with paths %d errors (%v), without %d (%v)", len(with), with, len(without), without)
		}
	}
}

// The hand-written name checks must judge exactly as upstream's expressions.
func TestDNSNamesAgreeWithUpstream(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	const alphabet = "abz09-.-.A_/"
	for i := range 200000 {
		n := r.Intn(12)
		switch i % 50 {
		case 0:
			n = 60 + r.Intn(8)
		case 1:
			n = 250 + r.Intn(8)
		}
		b := make([]byte, n)
		for j := range b {
			b[j] = alphabet[r.Intn(len(alphabet))]
			if r.Intn(3) > 0 {
				b[j] = "abz09"[r.Intn(5)] // mostly valid characters
			}
		}
		s := string(b)
		if got, want := dnsSubdomain(s), len(validation.IsDNS1123Subdomain(s)) == 0; got != want {
			t.Fatalf("dnsSubdomain(%q) = %v, upstream %v", s, got, want)
		}
		if got, want := dnsLabel(s), len(validation.IsDNS1123Label(s)) == 0; got != want {
			t.Fatalf("dnsLabel(%q) = %v, upstream %v", s, got, want)
		}
		if got, want := dnsSubdomainPrefix(s), len(apivalidation.NameIsDNSSubdomain(s, true)) == 0; got != want {
			t.Fatalf("dnsSubdomainPrefix(%q) = %v, upstream %v", s, got, want)
		}
	}
	for _, n := range []int{1, 62, 63, 64, 252, 253, 254} {
		for _, s := range []string{strings.Repeat("a", n), strings.Repeat("a.", n/2) + strings.Repeat("b", n%2+1)} {
			if got, want := dnsSubdomain(s), len(validation.IsDNS1123Subdomain(s)) == 0; got != want {
				t.Errorf("dnsSubdomain of %d characters = %v, upstream %v", len(s), got, want)
			}
			if got, want := dnsLabel(s), len(validation.IsDNS1123Label(s)) == 0; got != want {
				t.Errorf("dnsLabel of %d characters = %v, upstream %v", len(s), got, want)
			}
		}
	}
	if !isDNSSubdomainFn(apivalidation.NameIsDNSSubdomain) || isDNSSubdomainFn(apivalidation.NameIsDNSLabel) {
		t.Error("the name function is misrecognised")
	}
}

// Remembered or not, a label pair is valid exactly when upstream says so.
func TestLabelsValidAgreesWithUpstream(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	keys := []string{"app", "pod-template-hash", "rollscope.dev/x", "a/b/c", "-bad", "Upper", "", strings.Repeat("k", 64), "example.com/" + strings.Repeat("k", 63)}
	values := []string{"web", "7d9c5b", "", "-bad-", "a b", strings.Repeat("v", 63), strings.Repeat("v", 64), "A.b_c"}
	for range 5000 {
		labels := map[string]string{}
		for range r.Intn(3) {
			labels[pick(r, keys...)] = pick(r, values...)
		}
		want := len(metav1validation.ValidateLabels(labels, field.NewPath("labels"))) == 0
		for range 2 { // the second answer may be remembered
			if got := labelsValid(labels); got != want {
				t.Fatalf("labelsValid(%v) = %v, upstream %v", labels, got, want)
			}
		}
	}
}
