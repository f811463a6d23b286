package controltest

import (
	"sort"
	"strconv"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/engine/control"
)

// Observe brings the caches of kinds, in the order given, up to date with
// the API and calls the watched controller's handlers for each difference,
// as informers would. Each object that is new or changed gets a fresh
// resourceVersion, as the API server would have given it; objects are
// handled in key order so that runs are reproducible. It returns the new and
// changed objects, in the order the handlers saw them.
//
// The lists go through the fake client, so they are among its actions.
func (h *Harness) Observe(kinds ...control.Kind) []runtime.Object {
	h.T.Helper()
	var changed []runtime.Object
	for _, kind := range kinds {
		changed = append(changed, h.observe(kind)...)
	}
	return changed
}

func (h *Harness) observe(kind control.Kind) []runtime.Object {
	h.T.Helper()
	ix, handler := h.Indexer(kind), h.Handlers[kind]
	current := h.list(kind)
	sort.Slice(current, func(i, j int) bool { return control.Key(current[i]) < control.Key(current[j]) })
	seen := make(map[string]bool, len(current))
	var changed []runtime.Object
	for _, obj := range current {
		key := control.Key(obj)
		seen[key] = true
		old, exists, _ := ix.GetByKey(key)
		if exists && equality.Semantic.DeepEqual(withoutVersion(old), withoutVersion(obj)) {
			continue
		}
		h.versions++
		obj.(metav1.Object).SetResourceVersion(strconv.Itoa(h.versions))
		if err := ix.Update(obj); err != nil {
			h.T.Fatalf("cache %s: %v", describe(obj), err)
		}
		changed = append(changed, obj)
		switch {
		case handler == nil:
		case exists:
			handler.OnUpdate(old, obj)
		default:
			handler.OnAdd(obj, false)
		}
	}
	keys := ix.ListKeys()
	sort.Strings(keys)
	for _, key := range keys {
		if seen[key] {
			continue
		}
		old, _, _ := ix.GetByKey(key)
		if err := ix.Delete(old); err != nil {
			h.T.Fatalf("drop %s from the %s cache: %v", key, kind, err)
		}
		if handler != nil {
			handler.OnDelete(old)
		}
	}
	return changed
}

// list reads every object of kind through the fake client, recording the
// same list action a typed client's List would.
func (h *Harness) list(kind control.Kind) []runtime.Object {
	h.T.Helper()
	gvk := apiKinds[kind]
	gvr := gvk.GroupVersion().WithResource(string(kind))
	list, err := h.Client.Invokes(clienttesting.NewListActionWithOptions(gvr, gvk, "", metav1.ListOptions{}), nil)
	if err != nil {
		h.T.Fatalf("list %s: %v", kind, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		h.T.Fatalf("read the %s list: %v", kind, err)
	}
	return items
}

// withoutVersion is a copy of obj without its resourceVersion, to compare
// what an object says rather than when it was written.
func withoutVersion(obj any) runtime.Object {
	c := obj.(runtime.Object).DeepCopyObject()
	c.(metav1.Object).SetResourceVersion("")
	return c
}
