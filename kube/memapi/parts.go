package memapi

import (
	"reflect"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workload "rollscope/model/kind"
)

// part returns a top-level field (Spec, Status) of an API object, or an
// invalid Value when the object has none. Every served kind keeps them under
// these names, which lets the spec/status rules be written once.
func part(obj runtime.Object, name string) reflect.Value {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.Elem().FieldByName(name)
}

// copyStatus sets dst's status to src's. src must be an object nobody else
// holds (the status is shared with it afterwards).
func copyStatus(dst, src runtime.Object) {
	if copyUnstructuredStatus(dst, src) {
		return
	}
	d, s := part(dst, "Status"), part(src, "Status")
	if d.IsValid() && s.IsValid() && d.CanSet() && d.Type() == s.Type() {
		d.Set(s)
	}
}

// specChanged reports whether two versions of an object differ in spec,
// with the semantic equality the real server uses (nil and empty are equal,
// quantities compare by value).
func specChanged(old, next runtime.Object) bool {
	o, n := part(old, "Spec"), part(next, "Spec")
	if !o.IsValid() || !n.IsValid() {
		return false
	}
	return !apiequality.Semantic.DeepEqual(o.Interface(), n.Interface())
}

// daemonSetTemplateGeneration is the annotation through which apps/v1 shows
// a DaemonSet's template generation.
const daemonSetTemplateGeneration = "deprecated.daemonset.template.generation"

// prepareForCreate applies what the real server's strategies do to a new
// object: status cannot be set on create, and generation starts at 1 for
// kinds that track it.
func prepareForCreate(k *kind, obj runtime.Object) {
	if k.generation {
		metaOf(obj).SetGeneration(1)
	} else {
		metaOf(obj).SetGeneration(0)
	}
	switch o := obj.(type) {
	case *corev1.Pod:
		o.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: podQOS(o)}
	case *corev1.Namespace:
		o.Status = corev1.NamespaceStatus{Phase: corev1.NamespaceActive}
		hasKubernetes := false
		for _, f := range o.Spec.Finalizers {
			hasKubernetes = hasKubernetes || f == corev1.FinalizerKubernetes
		}
		if !hasKubernetes {
			o.Spec.Finalizers = append(o.Spec.Finalizers, corev1.FinalizerKubernetes)
		}
	case *corev1.Service:
		o.Status = corev1.ServiceStatus{}
	case *appsv1.ReplicaSet:
		o.Status = appsv1.ReplicaSetStatus{}
	case *appsv1.DaemonSet:
		o.Status = appsv1.DaemonSetStatus{}
		if n, err := strconv.ParseInt(o.Annotations[daemonSetTemplateGeneration], 10, 64); err != nil || n < 1 {
			setAnnotation(&o.ObjectMeta.Annotations, daemonSetTemplateGeneration, "1")
		}
	case *policyv1.PodDisruptionBudget:
		o.Status = policyv1.PodDisruptionBudgetStatus{}
	case *unstructured.Unstructured:
		if k.status { // a CRD with a status subresource drops a created object's status
			delete(o.Object, "status")
		}
	default:
		// The other workload kinds start with an empty status.
		if _, ok := workload.Of(obj); ok {
			if st := part(obj, "Status"); st.CanSet() {
				st.SetZero()
			}
		}
	}
}

// nextGeneration computes metadata.generation after a spec write: spec
// changes bump it, and for Deployments so do annotation changes, because the
// deployment controller copies annotations onto its ReplicaSets.
func nextGeneration(k *kind, old, next runtime.Object) int64 {
	g := metaOf(old).GetGeneration()
	if !k.generation {
		return g
	}
	var changed bool
	if k.custom {
		changed = unstructuredChanged(k, old, next)
	} else {
		changed = specChanged(old, next)
	}
	if _, ok := next.(*appsv1.Deployment); ok && !changed {
		changed = !apiequality.Semantic.DeepEqual(metaOf(old).GetAnnotations(), metaOf(next).GetAnnotations())
	}
	if changed {
		g++
	}
	return g
}

// keepTemplateGeneration carries a DaemonSet's template generation over an
// update, counting template changes, as upstream's strategy does.
func keepTemplateGeneration(old, next runtime.Object) {
	o, ok1 := old.(*appsv1.DaemonSet)
	n, ok2 := next.(*appsv1.DaemonSet)
	if !ok1 || !ok2 {
		return
	}
	gen, err := strconv.ParseInt(o.Annotations[daemonSetTemplateGeneration], 10, 64)
	if err != nil {
		gen = 1
	}
	if !apiequality.Semantic.DeepEqual(o.Spec.Template, n.Spec.Template) {
		gen++
	}
	setAnnotation(&n.ObjectMeta.Annotations, daemonSetTemplateGeneration, strconv.FormatInt(gen, 10))
}

func setAnnotation(annotations *map[string]string, key, value string) {
	if *annotations == nil {
		*annotations = map[string]string{}
	}
	(*annotations)[key] = value
}
