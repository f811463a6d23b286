package memapi

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/model/argo"
)

// Restore stores objects as they were in another cluster — a recording's
// moment, forked (rehearse from here) — instead of as new ones: their
// UIDs (which ownerReferences name), creation times (a pod's age),
// generations, annotations and status are kept; only the resourceVersion
// is this cluster's. Watchers and subscribers see each as Added, so the
// controllers take them up as they would a restarted cluster's. An object
// of the same name already there (the default namespace) is left as it
// is. Objects go in the order given: namespaces and owners first.
func (c *Cluster) Restore(objs ...runtime.Object) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, obj := range objs {
		obj = obj.DeepCopyObject()
		if kind, ok := customTyped[reflect.TypeOf(obj)]; ok {
			// Stored as the JSON a client would have sent.
			u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
			if err != nil {
				return fmt.Errorf("%s %s: %w", kind, metaOf(obj).GetName(), err)
			}
			uo := &unstructured.Unstructured{Object: u}
			uo.SetAPIVersion(argo.GroupVersion.String())
			uo.SetKind(kind)
			obj = uo
		}
		t := c.tableOfObject(obj)
		if t == nil {
			return fmt.Errorf("the embedded cluster does not serve %T", obj)
		}
		m := metaOf(obj)
		if t.get(m.GetNamespace(), m.GetName()) != nil {
			continue
		}
		clearTypeMeta(obj)
		m.SetResourceVersion("")
		m.SetManagedFields(nil)
		c.commit(t, watch.Added, obj, nil)
	}
	return nil
}

// customTyped are the Go types a custom resource is read into elsewhere.
var customTyped = map[reflect.Type]string{
	reflect.TypeOf(&argo.Rollout{}):     "Rollout",
	reflect.TypeOf(&argo.AnalysisRun{}): "AnalysisRun",
}

// tableOfObject is the table that stores obj's kind: by Go type for the
// built-in kinds, by group and kind for custom resources.
func (c *Cluster) tableOfObject(obj runtime.Object) *table {
	gvk := obj.GetObjectKind().GroupVersionKind()
	for _, k := range c.kinds {
		if k.custom {
			if _, ok := obj.(*unstructured.Unstructured); ok && k.gvk.GroupKind() == gvk.GroupKind() {
				return c.tables[k.gvr]
			}
			continue
		}
		if k.objType == reflect.TypeOf(obj) {
			return c.tables[k.gvr]
		}
	}
	return nil
}
