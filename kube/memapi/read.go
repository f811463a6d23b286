package memapi

import (
	"fmt"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// get returns a copy of one object. The caller holds c.mu.
func (c *Cluster) get(t *table, namespace, name string) (runtime.Object, error) {
	obj := t.get(namespace, name)
	if obj == nil {
		return nil, apierrors.NewNotFound(t.kind.groupResource(), name)
	}
	return obj.DeepCopyObject(), nil
}

// list returns copies of the matching objects in key order, with the
// current resourceVersion in the list metadata. Limit and continue are not
// needed by anything that lists the embedded cluster: everything is returned
// in one page. The caller holds c.mu.
func (c *Cluster) list(t *table, namespace string, l labels.Selector, f fields.Selector) (runtime.Object, error) {
	flt, err := newFilter(t.kind, namespace, l, f)
	if err != nil {
		return nil, err
	}
	list := t.kind.newList()
	if list == nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("no list type registered for %s", t.kind.gvk))
	}

	var items []runtime.Object
	for _, obj := range t.sorted(flt.namespace) {
		if flt.matches(obj) {
			items = append(items, obj.DeepCopyObject())
		}
	}
	rv := c.rv
	if err := meta.SetList(list, items); err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("building the %s list: %w", t.kind.gvr.Resource, err))
	}
	if lm, err := meta.ListAccessor(list); err == nil {
		lm.SetResourceVersion(strconv.FormatUint(rv, 10))
	}
	return list, nil
}
