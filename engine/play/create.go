package play

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"

	"rollscope/engine/sim"
	"rollscope/kube/objects"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// CreateAll creates a scenario's objects in order; the first that the API
// refuses stops it, named in the error.
func CreateAll(ctx context.Context, c kubernetes.Interface, scenarioName string, objs []runtime.Object) error {
	for _, obj := range objs {
		if err := Create(ctx, c, obj); err != nil {
			name := ""
			if m, _ := meta.Accessor(obj); m != nil {
				name = m.GetName()
			}
			return fmt.Errorf("scenario %s: cannot create %s %q: %w", scenarioName, kindName(obj), name, err)
		}
	}
	return nil
}

// kindName is the kind of obj as a manifest names it ("Namespace",
// "Deployment"), never a Go type: these errors are read by people who
// wrote YAML.
func kindName(obj runtime.Object) string {
	if k := obj.GetObjectKind().GroupVersionKind().Kind; k != "" {
		return k
	}
	if gvks, _, err := scheme.Scheme.ObjectKinds(obj); err == nil && len(gvks) > 0 {
		return gvks[0].Kind
	}
	if k, ok := sim.KindOf(obj); ok {
		return string(k)
	}
	return "object"
}

// Create sends one scenario object to the API: a workload through its
// kind's row (kube/objects), anything else with its typed client. The object is copied: the scenario stays as it was parsed.
func Create(ctx context.Context, c kubernetes.Interface, obj runtime.Object) error {
	o := metav1.CreateOptions{}
	var err error
	if w, ok := kind.Of(obj); ok {
		row, _ := objects.For(w.Kind())
		return row.Create(ctx, c, obj)
	}
	switch x := obj.(type) {
	case *appsv1.ReplicaSet:
		_, err = c.AppsV1().ReplicaSets(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *policyv1.PodDisruptionBudget:
		_, err = c.PolicyV1().PodDisruptionBudgets(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *corev1.Namespace:
		err = applyNamespace(ctx, c, x)
	case *corev1.ConfigMap:
		_, err = c.CoreV1().ConfigMaps(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *corev1.Service:
		_, err = c.CoreV1().Services(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *corev1.Pod:
		_, err = c.CoreV1().Pods(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *argo.AnalysisTemplate:
		err = createCustom(ctx, c, argo.AnalysisTemplates, x.Namespace, x.DeepCopy())
	default:
		err = fmt.Errorf("%s objects are not supported in scenarios", kindName(obj))
	}
	return err
}

// createCustom creates a custom resource's object (an AnalysisTemplate)
// through the connection's dynamic client, as kubectl sends it.
func createCustom(ctx context.Context, c kubernetes.Interface, gvr schema.GroupVersionResource, ns string, obj runtime.Object) error {
	d, err := objects.DynamicOf(c)
	if err != nil {
		return err
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return err
	}
	_, err = d.Resource(gvr).Namespace(ns).Create(ctx, &unstructured.Unstructured{Object: u}, metav1.CreateOptions{})
	return err
}

// applyNamespace creates ns, or, when a namespace of that name is already
// there (the scenario's own, which the cluster makes first, or "default"),
// gives it ns's labels and annotations — what `kubectl apply` does with a
// manifest that declares a namespace the cluster has.
func applyNamespace(ctx context.Context, c kubernetes.Interface, ns *corev1.Namespace) error {
	_, err := c.CoreV1().Namespaces().Create(ctx, ns.DeepCopy(), metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		return err
	}
	have, err := c.CoreV1().Namespaces().Get(ctx, ns.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	labels, labelsChanged := merged(have.Labels, ns.Labels)
	annotations, annotationsChanged := merged(have.Annotations, ns.Annotations)
	if !labelsChanged && !annotationsChanged {
		return nil
	}
	have = have.DeepCopy()
	have.Labels, have.Annotations = labels, annotations
	_, err = c.CoreV1().Namespaces().Update(ctx, have, metav1.UpdateOptions{})
	return err
}

// merged is have with want's entries set, and whether that changed it.
func merged(have, want map[string]string) (map[string]string, bool) {
	changed := false
	for k, v := range want {
		if old, ok := have[k]; !ok || old != v {
			changed = true
		}
	}
	if !changed {
		return have, false
	}
	out := make(map[string]string, len(have)+len(want))
	for k, v := range have {
		out[k] = v
	}
	for k, v := range want {
		out[k] = v
	}
	return out, true
}
