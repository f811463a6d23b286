package memapi

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/model"
)

// update replaces an object, as PUT does on the object ("" subresource) or
// on its status. The caller holds c.mu and gives up obj.
func (c *Cluster) update(t *table, namespace string, obj runtime.Object, subresource string, opts metav1.UpdateOptions) (runtime.Object, error) {
	k := t.kind
	if err := checkType(k, obj); err != nil {
		return nil, err
	}
	m := metaOf(obj)
	if err := placeInNamespace(k, m, namespace); err != nil {
		return nil, err
	}
	if m.GetName() == "" {
		return nil, apierrors.NewBadRequest("the object to update has no metadata.name: set the name of the " + k.gvk.Kind + " to replace")
	}
	old := t.get(m.GetNamespace(), m.GetName())
	if old == nil {
		if k.createOnUpdate && subresource == "" {
			m.SetResourceVersion("")
			return c.create(t, namespace, obj, metav1.CreateOptions{DryRun: opts.DryRun})
		}
		return nil, apierrors.NewNotFound(k.groupResource(), m.GetName())
	}
	if err := checkPreconditions(k, metaOf(old), m.GetUID(), m.GetResourceVersion()); err != nil {
		return nil, err
	}
	var next runtime.Object
	switch {
	case subresource == "":
		next = specWrite(k, old, obj)
	case subresource == "status" && k.status:
		next = statusWrite(old, obj)
	default:
		return nil, apierrors.NewNotFound(k.groupResource(), m.GetName()+"/"+subresource)
	}
	return c.replace(t, old, next, subresource, isDryRun(opts.DryRun))
}

// specWrite builds the object a normal write stores: the request, with the
// fields only the server sets taken from the stored object, the stored
// status for kinds with a status subresource, and generation counting spec
// changes. It takes ownership of req.
func specWrite(k *kind, old, req runtime.Object) runtime.Object {
	om, nm := metaOf(old), metaOf(req)
	clearTypeMeta(req)
	nm.SetNamespace(om.GetNamespace())
	nm.SetUID(om.GetUID())
	nm.SetCreationTimestamp(om.GetCreationTimestamp())
	nm.SetDeletionTimestamp(copyTime(om.GetDeletionTimestamp()))
	nm.SetDeletionGracePeriodSeconds(copyInt64(om.GetDeletionGracePeriodSeconds()))
	nm.SetResourceVersion(om.GetResourceVersion())
	nm.SetManagedFields(nil)
	nm.SetSelfLink("")
	applyDefaults(req)
	if k.status {
		copyStatus(req, old.DeepCopyObject())
	}
	keepTemplateGeneration(old, req)
	nm.SetGeneration(nextGeneration(k, old, req))
	return req
}

// statusWrite builds the object a status write stores: the stored object
// with the request's status. Deployments also take the request's
// annotations, which upstream keeps on deployment status updates.
func statusWrite(old, req runtime.Object) runtime.Object {
	if p, ok := old.(*corev1.Pod); ok {
		return podStatusWrite(p, req.(*corev1.Pod))
	}
	next := old.DeepCopyObject()
	copyStatus(next, req)
	if d, ok := next.(*appsv1.Deployment); ok {
		d.Annotations = metaOf(req).GetAnnotations()
	}
	applyDefaults(next)
	return next
}

// podStatusWrite is statusWrite for the kubelet's frequent pod status
// writes. The new version shares the stored spec and the metadata's maps and
// slices instead of copying them: stored objects are never modified (every
// write path copies before it changes anything), the spec, already defaulted
// when the pod was created, cannot change through the status subresource,
// and what commit sets on the metadata (resourceVersion, whole-second
// timestamps) are fields of the struct itself, replaced, not written through.
func podStatusWrite(old, req *corev1.Pod) *corev1.Pod {
	next := *old
	next.Status = req.Status
	if next.Status.QOSClass == "" {
		next.Status.QOSClass = old.Status.QOSClass // immutable once set
	}
	return &next
}

// replace validates and commits next over old. A write that changes nothing
// is not committed (no new resourceVersion, no event), as etcd-backed
// storage skips identical writes. A write that drops the last finalizer of
// an object whose deletion is due removes it.
func (c *Cluster) replace(t *table, old, next runtime.Object, subresource string, dryRun bool) (runtime.Object, error) {
	k := t.kind
	nm := metaOf(next)
	if errs := validateUpdate(k, next, old, subresource); len(errs) > 0 {
		return nil, apierrors.NewInvalid(k.groupKind(), nm.GetName(), errs)
	}
	if deletionDue(metaOf(old)) && len(nm.GetFinalizers()) == 0 {
		if !dryRun {
			c.remove(t, next, old, &deletion{visiting: map[string]bool{}})
		}
		return next.DeepCopyObject(), nil
	}
	if unchanged(next, old, subresource) {
		if c.discard {
			return nil, nil
		}
		return old.DeepCopyObject(), nil
	}
	if dryRun {
		return next.DeepCopyObject(), nil
	}
	c.commit(t, watch.Modified, next, old)
	if c.discard {
		// Nobody reads the answer: a copy of the whole pod would only be
		// garbage (the kubelet's status writes, the most frequent write).
		return nil, nil
	}
	return next.DeepCopyObject(), nil
}

// unchanged reports whether a write would store what is already stored. A
// status write only ever changes the status (and a Deployment's
// annotations), so only those are compared: the comparison is the costliest
// part of the kubelet's frequent status writes.
func unchanged(next, old runtime.Object, subresource string) bool {
	if subresource != "status" {
		return apiequality.Semantic.DeepEqual(next, old)
	}
	if _, ok := next.(*appsv1.Deployment); ok && !apiequality.Semantic.DeepEqual(metaOf(next).GetAnnotations(), metaOf(old).GetAnnotations()) {
		return false
	}
	if n, ok := next.(*corev1.Pod); ok && model.PodStatusesDiffer(&n.Status, &old.(*corev1.Pod).Status) {
		return false // the kubelet's writes, told apart without reflection
	}
	if st, _, ok := unstructuredPart(next, "status"); ok {
		was, _, _ := unstructuredPart(old, "status")
		return apiequality.Semantic.DeepEqual(st, was)
	}
	return apiequality.Semantic.DeepEqual(part(next, "Status").Interface(), part(old, "Status").Interface())
}

// deletionDue reports whether an object's deletion waits only for its
// finalizers: it has been deleted with no grace period left.
func deletionDue(m metav1.Object) bool {
	if m.GetDeletionTimestamp() == nil {
		return false
	}
	g := m.GetDeletionGracePeriodSeconds()
	return g == nil || *g == 0
}

func copyTime(t *metav1.Time) *metav1.Time {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}

func copyInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}
