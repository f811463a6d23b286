package memapi

import (
	"fmt"
	"net/http"
	"runtime/debug"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
)

// The fake clientset's discovery asks its reactors about these pseudo
// resources before answering from Fake.Resources.
var discoveryPseudoResources = map[string]bool{"resource": true, "group": true, "version": true}

// react answers every non-watch request of the typed clients.
func (c *Cluster) react(action clienttesting.Action) (handled bool, ret runtime.Object, err error) {
	return c.reactWith(action, false)
}

// reactDiscarding serves a write whose answer the caller throws away.
func (c *Cluster) reactDiscarding(action clienttesting.Action) error {
	_, _, err := c.reactWith(action, true)
	return err
}

func (c *Cluster) reactWith(action clienttesting.Action, discard bool) (handled bool, ret runtime.Object, err error) {
	c.countCall()
	gvr := action.GetResource()
	t := c.tables[gvr]
	if t == nil {
		if gvr.Group == "" && gvr.Version == "" && discoveryPseudoResources[gvr.Resource] {
			return true, nil, nil
		}
		return true, nil, apierrors.NewGenericServerResponse(http.StatusNotFound, action.GetVerb(), gvr.GroupResource(), "", "", 0, false)
	}
	ret, err = c.serveLocked(action.GetVerb(), gvr.Resource, discard, func() (runtime.Object, error) { return c.serve(t, action) })
	return true, ret, err
}

// serveLocked serves one request under c.mu; a panic in it is answered as
// an internal error naming the request, never passed to the caller.
func (c *Cluster) serveLocked(verb, resource string, discard bool, serve func() (runtime.Object, error)) (ret runtime.Object, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = apierrors.NewInternalError(fmt.Errorf("the embedded API server failed on %s %s: %v\n%s", verb, resource, r, debug.Stack()))
		}
	}()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.discard = discard
	defer func() { c.discard = false }()
	ret, err = serve()
	if discard {
		ret = nil
	}
	return ret, err
}

// serve routes a request by verb and subresource. The caller holds c.mu.
func (c *Cluster) serve(t *table, action clienttesting.Action) (runtime.Object, error) {
	ns, sub := action.GetNamespace(), action.GetSubresource()
	if err := checkRequestOptions(action); err != nil {
		return nil, err
	}
	switch a := action.(type) {
	case clienttesting.GetActionImpl:
		switch {
		case sub == "" || sub == "status" && t.kind.status:
			return c.get(t, ns, a.Name)
		case sub == "scale" && t.kind.scale:
			return c.getScale(t, ns, a.Name)
		}
	case clienttesting.ListActionImpl:
		if sub == "" {
			return c.list(t, ns, a.ListRestrictions.Labels, a.ListRestrictions.Fields)
		}
	case clienttesting.CreateActionImpl:
		switch {
		case sub == "":
			return c.create(t, ns, a.Object, a.CreateOptions)
		case sub == "binding" && t.kind.gvk.Kind == "Pod":
			b, _ := a.Object.(*corev1.Binding)
			return nil, c.bind(t, ns, b, a.CreateOptions)
		case sub == "eviction" && t.kind.gvk.Kind == "Pod":
			return c.evict(t, ns, a.Object, a.CreateOptions)
		}
	case clienttesting.UpdateActionImpl:
		switch {
		case sub == "" || sub == "status":
			return c.update(t, ns, a.Object, sub, a.UpdateOptions)
		case sub == "scale" && t.kind.scale:
			s := scaleRequest(a.Object)
			return c.updateScale(t, ns, s, isDryRun(a.UpdateOptions.DryRun))
		}
	case clienttesting.PatchActionImpl:
		if sub == "scale" && t.kind.scale {
			return c.patchScale(t, ns, a.Name, a.PatchType, a.Patch, isDryRun(a.PatchOptions.DryRun))
		}
		return c.patch(t, ns, a.Name, a.PatchType, a.Patch, sub, a.PatchOptions)
	case clienttesting.DeleteActionImpl:
		if sub == "" {
			return nil, c.delete(t, ns, a.Name, a.DeleteOptions)
		}
	case clienttesting.DeleteCollectionActionImpl:
		return nil, c.deleteCollection(t, ns, a.ListRestrictions.Labels, a.ListRestrictions.Fields, a.DeleteOptions)
	}
	return nil, apierrors.NewGenericServerResponse(http.StatusNotFound, action.GetVerb(), t.kind.groupResource(), sub, "", 0, false)
}

// checkRequestOptions validates the options of a write before it is routed.
func checkRequestOptions(action clienttesting.Action) error {
	switch a := action.(type) {
	case clienttesting.CreateActionImpl:
		return checkDryRun("CreateOptions", a.CreateOptions.DryRun)
	case clienttesting.UpdateActionImpl:
		return checkDryRun("UpdateOptions", a.UpdateOptions.DryRun)
	case clienttesting.PatchActionImpl:
		return checkDryRun("PatchOptions", a.PatchOptions.DryRun)
	case clienttesting.DeleteActionImpl:
		return checkDeleteOptions(&a.DeleteOptions)
	case clienttesting.DeleteCollectionActionImpl:
		return checkDeleteOptions(&a.DeleteOptions)
	}
	return nil
}

// reactWatch answers every watch request of the typed clients.
func (c *Cluster) reactWatch(action clienttesting.Action) (handled bool, ret watch.Interface, err error) {
	c.countCall()
	defer func() {
		if r := recover(); r != nil {
			err = apierrors.NewInternalError(fmt.Errorf("the embedded API server failed on watch %s: %v\n%s", action.GetResource().Resource, r, debug.Stack()))
		}
	}()
	t := c.tables[action.GetResource()]
	if t == nil {
		return true, nil, apierrors.NewGenericServerResponse(http.StatusNotFound, "watch", action.GetResource().GroupResource(), "", "", 0, false)
	}
	var opts metav1.ListOptions
	a, ok := action.(clienttesting.WatchActionImpl)
	if ok {
		opts = a.ListOptions
	}
	w, err := c.watch(t, action.GetNamespace(), opts, a.WatchRestrictions.Labels, a.WatchRestrictions.Fields)
	return true, w, err
}

// countCall bounds the fake clientset's action log, which grows by a deep
// copy of every request. It cannot be cleared from inside a reactor (the
// fake holds its lock while calling us), hence the goroutine.
func (c *Cluster) countCall() {
	if c.calls.Add(1)%clearActionsEvery == 0 {
		go c.client.ClearActions()
		go c.dynamic.ClearActions()
	}
}
