package memapi

import (
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// scaleOf returns the autoscaling/v1 Scale view of a scalable object.
func scaleOf(obj runtime.Object) (*autoscalingv1.Scale, error) {
	m := metaOf(obj)
	s := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{
		Name: m.GetName(), Namespace: m.GetNamespace(), UID: m.GetUID(),
		ResourceVersion: m.GetResourceVersion(), CreationTimestamp: m.GetCreationTimestamp(),
	}}
	var selector *metav1.LabelSelector
	switch o := obj.(type) {
	case *appsv1.Deployment:
		s.Spec.Replicas, s.Status.Replicas, selector = deref(o.Spec.Replicas), o.Status.Replicas, o.Spec.Selector
	case *appsv1.ReplicaSet:
		s.Spec.Replicas, s.Status.Replicas, selector = deref(o.Spec.Replicas), o.Status.Replicas, o.Spec.Selector
	case *corev1.ReplicationController:
		s.Spec.Replicas, s.Status.Replicas = deref(o.Spec.Replicas), o.Status.Replicas
		s.Status.Selector = labels.SelectorFromSet(o.Spec.Selector).String()
		return s, nil
	case *unstructured.Unstructured:
		// A Rollout's CRD: specReplicasPath .spec.replicas,
		// statusReplicasPath .status.HPAReplicas, labelSelectorPath
		// .status.selector.
		replicas, _, _ := unstructured.NestedInt64(o.Object, "spec", "replicas")
		current, _, _ := unstructured.NestedInt64(o.Object, "status", "HPAReplicas")
		s.Status.Selector, _, _ = unstructured.NestedString(o.Object, "status", "selector")
		s.Spec.Replicas, s.Status.Replicas = int32(replicas), int32(current)
		return s, nil
	default:
		return nil, fmt.Errorf("%T has no scale subresource", obj)
	}
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return nil, fmt.Errorf("reading the selector of %s: %w", m.GetName(), err)
	}
	s.Status.Selector = sel.String()
	return s, nil
}

// setReplicas sets spec.replicas of a scalable object.
func setReplicas(obj runtime.Object, replicas int32) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		o.Spec.Replicas = &replicas
	case *appsv1.ReplicaSet:
		o.Spec.Replicas = &replicas
	case *corev1.ReplicationController:
		o.Spec.Replicas = &replicas
	case *unstructured.Unstructured:
		_ = unstructured.SetNestedField(o.Object, int64(replicas), "spec", "replicas")
	}
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// getScale handles GET of the scale subresource. The caller holds c.mu.
func (c *Cluster) getScale(t *table, namespace, name string) (runtime.Object, error) {
	obj := t.get(namespace, name)
	if obj == nil {
		return nil, apierrors.NewNotFound(t.kind.groupResource(), name)
	}
	return c.scaleResult(obj)
}

func (c *Cluster) scaleResult(obj runtime.Object) (runtime.Object, error) {
	s, err := scaleOf(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if _, ok := obj.(*unstructured.Unstructured); ok {
		// A custom resource's scale is asked through the dynamic client,
		// which takes the Scale as a real server sends it.
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(s)
		if err != nil {
			return nil, apierrors.NewInternalError(fmt.Errorf("encoding the scale of %s: %w", s.Name, err))
		}
		u := &unstructured.Unstructured{Object: m}
		u.SetGroupVersionKind(autoscalingv1.SchemeGroupVersion.WithKind("Scale"))
		return u, nil
	}
	return s, nil
}

// updateScale handles PUT of the scale subresource: the new replica count
// is written to the object's spec (bumping its generation), conditional on
// the Scale's resourceVersion when it carries one. The caller holds c.mu.
func (c *Cluster) updateScale(t *table, namespace string, s *autoscalingv1.Scale, dryRun bool) (runtime.Object, error) {
	k := t.kind
	if s == nil {
		return nil, apierrors.NewBadRequest("expected an autoscaling/v1 Scale")
	}
	if namespace == "" {
		namespace = s.Namespace
	}
	old := t.get(namespace, s.Name)
	if old == nil {
		return nil, apierrors.NewNotFound(k.groupResource(), s.Name)
	}
	if errs := apivalidation.ValidateNonnegativeField(int64(s.Spec.Replicas), field.NewPath("spec", "replicas")); len(errs) > 0 {
		return nil, apierrors.NewInvalid(autoscalingv1.SchemeGroupVersion.WithKind("Scale").GroupKind(), s.Name, errs)
	}
	if err := checkPreconditions(k, metaOf(old), s.UID, s.ResourceVersion); err != nil {
		return nil, err
	}
	next := old.DeepCopyObject()
	setReplicas(next, s.Spec.Replicas)
	next = specWrite(k, old, next)
	written, err := c.replace(t, old, next, "", dryRun)
	if err != nil {
		return nil, err
	}
	return c.scaleResult(written)
}

// patchScale handles PATCH of the scale subresource. client-go reaches it
// through the parent's typed Patch, which decodes the server's Scale into
// the parent's type: the answer is that decoding, so that the typed client
// gets what it would get from a real server (name, replicas) instead of a
// type it cannot hold.
func (c *Cluster) patchScale(t *table, namespace, name string, pt types.PatchType, data []byte, dryRun bool) (runtime.Object, error) {
	s, err := c.patchScaleOnly(t, namespace, name, pt, data, dryRun)
	if err != nil {
		return nil, err
	}
	if t.kind.custom {
		return s, nil // already what the dynamic client takes (scaleResult)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("encoding the scale of %s: %w", name, err))
	}
	out := t.kind.newObject()
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("decoding the scale of %s as a %s: %w", name, t.kind.gvk.Kind, err))
	}
	return out, nil
}

func (c *Cluster) patchScaleOnly(t *table, namespace, name string, pt types.PatchType, data []byte, dryRun bool) (runtime.Object, error) {
	obj := t.get(namespace, name)
	if obj == nil {
		return nil, apierrors.NewNotFound(t.kind.groupResource(), name)
	}
	current, err := scaleOf(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	patched := &autoscalingv1.Scale{}
	if err := applyPatch(t.kind, name, pt, current, data, patched); err != nil {
		return nil, err
	}
	if patched.Name != name {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", patched.Name, name))
	}
	return c.updateScale(t, namespace, patched, dryRun)
}

// scaleRequest is the Scale a PUT of the scale subresource sends: typed
// from the typed clients, unstructured from the dynamic one; nil for
// anything else.
func scaleRequest(obj runtime.Object) *autoscalingv1.Scale {
	switch o := obj.(type) {
	case *autoscalingv1.Scale:
		return o
	case *unstructured.Unstructured:
		s := &autoscalingv1.Scale{}
		if runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, s) == nil {
			return s
		}
	}
	return nil
}
