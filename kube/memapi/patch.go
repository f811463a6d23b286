package memapi

import (
	"encoding/json"
	"fmt"
	"net/http"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// patch handles PATCH of an object or its status: the patch is applied to
// the stored object's JSON and the result goes through the same rules as an
// update. A patch that sets metadata.resourceVersion makes it conditional.
// The caller holds c.mu.
func (c *Cluster) patch(t *table, namespace, name string, pt types.PatchType, data []byte, subresource string, opts metav1.PatchOptions) (runtime.Object, error) {
	k := t.kind
	if subresource != "" && (subresource != "status" || !k.status) {
		return nil, apierrors.NewNotFound(k.groupResource(), name+"/"+subresource)
	}
	old := t.get(namespace, name)
	if old == nil {
		return nil, apierrors.NewNotFound(k.groupResource(), name)
	}
	next := k.newObject()
	if err := applyPatch(k, name, pt, old, data, next); err != nil {
		return nil, err
	}
	nm, om := metaOf(next), metaOf(old)
	if nm.GetName() != name {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", nm.GetName(), name))
	}
	if nm.GetNamespace() != om.GetNamespace() {
		return nil, apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if err := checkPreconditions(k, om, nm.GetUID(), nm.GetResourceVersion()); err != nil {
		return nil, err
	}
	if subresource == "status" {
		next = statusWrite(old, next)
	} else {
		next = specWrite(k, old, next)
	}
	return c.replace(t, old, next, subresource, isDryRun(opts.DryRun))
}

// applyPatch applies a JSON, merge or strategic merge patch to current and
// decodes the result into out, which also gives the strategic merge its
// schema (the typed struct's patch strategies and merge keys).
func applyPatch(k *kind, name string, pt types.PatchType, current runtime.Object, data []byte, out runtime.Object) error {
	original, err := json.Marshal(current)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("encoding %s %q to patch it: %w", k.gvr.Resource, name, err))
	}
	var patched []byte
	switch pt {
	case types.JSONPatchType:
		p, err := jsonpatch.DecodePatch(data)
		if err != nil {
			return apierrors.NewBadRequest(err.Error())
		}
		if patched, err = p.Apply(original); err != nil {
			return &apierrors.StatusError{ErrStatus: metav1.Status{
				Status: metav1.StatusFailure, Code: http.StatusUnprocessableEntity, Reason: metav1.StatusReasonInvalid,
				Message: fmt.Sprintf("the JSON patch could not be applied to %s %q: %v", k.groupResource(), name, err),
			}}
		}
	case types.MergePatchType:
		if patched, err = jsonpatch.MergePatch(original, data); err != nil {
			return apierrors.NewBadRequest(err.Error())
		}
	case types.StrategicMergePatchType:
		if patched, err = strategicpatch.StrategicMergePatch(original, data, out); err != nil {
			return apierrors.NewBadRequest(err.Error())
		}
	default:
		return apierrors.NewGenericServerResponse(http.StatusUnsupportedMediaType, "patch", k.groupResource(), name,
			fmt.Sprintf("the embedded cluster does not accept %q patches (server-side apply is not supported): use a JSON, merge or strategic merge patch", pt), 0, false)
	}
	if err := json.Unmarshal(patched, out); err != nil {
		return apierrors.NewBadRequest(fmt.Sprintf("the patched %s %q is not a valid %s: %v", k.gvr.Resource, name, k.gvk.Kind, err))
	}
	return nil
}
