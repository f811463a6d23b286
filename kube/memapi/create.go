package memapi

import (
	"errors"
	"fmt"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

// generateNameAttempts is how often a clashing generated name is redrawn
// before giving up, as the real server retries.
const generateNameAttempts = 8

// create stores a new object, as POST does. The caller holds c.mu and gives
// up obj, which becomes the stored object.
func (c *Cluster) create(t *table, namespace string, obj runtime.Object, opts metav1.CreateOptions) (runtime.Object, error) {
	k := t.kind
	if err := checkType(k, obj); err != nil {
		return nil, err
	}
	m := metaOf(obj)
	if err := placeInNamespace(k, m, namespace); err != nil {
		return nil, err
	}
	if m.GetResourceVersion() != "" {
		return nil, apierrors.NewInternalError(errors.New("resourceVersion should not be set on objects to be created"))
	}
	if m.GetName() == "" && m.GetGenerateName() != "" {
		name := c.generateName(m.GetGenerateName())
		for i := 1; i < generateNameAttempts && t.get(m.GetNamespace(), name) != nil; i++ {
			name = c.generateName(m.GetGenerateName())
		}
		m.SetName(name)
	}
	clearTypeMeta(obj)
	m.SetCreationTimestamp(c.now())
	m.SetDeletionTimestamp(nil)
	m.SetDeletionGracePeriodSeconds(nil)
	m.SetManagedFields(nil)
	m.SetSelfLink("")
	applyDefaults(obj)
	prepareForCreate(k, obj)

	if errs := validateObject(k, obj, nil); len(errs) > 0 {
		return nil, apierrors.NewInvalid(k.groupKind(), m.GetName(), errs)
	}
	if err := c.checkNamespaceExists(k, m.GetNamespace()); err != nil {
		return nil, err
	}
	if p, ok := obj.(*corev1.Pod); ok {
		if err := admitPod(p); err != nil {
			return nil, err
		}
	}
	if t.get(m.GetNamespace(), m.GetName()) != nil {
		return nil, apierrors.NewAlreadyExists(k.groupResource(), m.GetName())
	}
	m.SetUID(c.newUID())
	if isDryRun(opts.DryRun) {
		return obj.DeepCopyObject(), nil
	}
	c.commit(t, watch.Added, obj, nil)
	if c.discard {
		// Nobody reads the answer (the ReplicaSet controller's creations,
		// recorded events): a copy would only be garbage.
		return nil, nil
	}
	return obj.DeepCopyObject(), nil
}

// checkType refuses an object of another kind than the resource's.
func checkType(k *kind, obj runtime.Object) error {
	if obj == nil || reflect.TypeOf(obj) != k.objType {
		return apierrors.NewBadRequest(fmt.Sprintf("expected a %s object for %s, got %T", k.gvk.Kind, k.gvr.Resource, obj))
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		if gvk := u.GroupVersionKind(); gvk != k.gvk {
			return apierrors.NewBadRequest(fmt.Sprintf("expected apiVersion %s and kind %s for %s, got %q and %q",
				k.gvk.GroupVersion(), k.gvk.Kind, k.gvr.Resource, u.GetAPIVersion(), u.GetKind()))
		}
	}
	return nil
}

// placeInNamespace reconciles the object's namespace with the request's, as
// the real server does: a namespaced object takes the request's namespace
// when it has none and must not name another; a cluster-scoped object has
// none.
func placeInNamespace(k *kind, m metav1.Object, namespace string) error {
	if !k.namespaced {
		m.SetNamespace("")
		return nil
	}
	if m.GetNamespace() == "" {
		m.SetNamespace(namespace)
	}
	if namespace != "" && m.GetNamespace() != namespace {
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}

// checkNamespaceExists refuses namespaced objects in a namespace that does
// not exist, as the NamespaceLifecycle admission plugin does.
func (c *Cluster) checkNamespaceExists(k *kind, namespace string) error {
	if !k.namespaced {
		return nil
	}
	if c.tables[corev1.SchemeGroupVersion.WithResource("namespaces")].get("", namespace) == nil {
		return apierrors.NewNotFound(corev1.Resource("namespaces"), namespace)
	}
	return nil
}

// clearTypeMeta drops apiVersion and kind: typed clients of a real server
// hand out objects without them, and so does this one.
// A custom resource's objects keep theirs, as the dynamic client gets them.
func clearTypeMeta(obj runtime.Object) {
	if _, ok := obj.(*unstructured.Unstructured); ok {
		return
	}
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
}
