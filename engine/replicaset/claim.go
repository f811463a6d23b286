package replicaset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/engine/control"
	"rollscope/model"
)

// candidatePods returns the active pods an owner may claim: those whose
// controller reference names it, and orphans its selector matches. They come
// sorted by name so that adoption and victim choice are reproducible.
func (c *Controller) candidatePods(o owner, sel labels.Selector) ([]*corev1.Pod, error) {
	owned, err := c.env.Listers.PodIndex.ByIndex(control.IndexByController, string(o.rs.UID))
	if err != nil {
		return nil, fmt.Errorf("list pods owned by %s: %w", ownerKey(o), err)
	}
	matching, err := c.env.Listers.Pods.Pods(o.rs.Namespace).List(sel)
	if err != nil {
		return nil, fmt.Errorf("list pods matching %s: %w", ownerKey(o), err)
	}
	var pods []*corev1.Pod
	for _, obj := range owned {
		if p, ok := obj.(*corev1.Pod); ok && p.Namespace == o.rs.Namespace && model.IsPodActive(p) {
			pods = append(pods, p)
		}
	}
	for _, p := range matching {
		if metav1.GetControllerOfNoCopy(p) == nil && model.IsPodActive(p) {
			pods = append(pods, p)
		}
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	return pods, nil
}

// claim returns the pods the owner keeps: those it controls whose labels
// still match, plus matching orphans it adopts. Pods it controls that no
// longer match are released, so that relabelling a pod takes it out of
// service without deleting it. An owner being deleted neither adopts nor
// releases.
func (c *Controller) claim(ctx context.Context, o owner, sel labels.Selector, pods []*corev1.Pod) ([]*corev1.Pod, error) {
	var claimed []*corev1.Pod
	var errs []error
	deleting := o.rs.DeletionTimestamp != nil
	var adoptable *error // checked once, on the first orphan
	for _, p := range pods {
		matches := sel.Matches(labels.Set(p.Labels))
		if ref := metav1.GetControllerOfNoCopy(p); ref != nil {
			if ref.UID != o.rs.UID {
				continue
			}
			if matches {
				claimed = append(claimed, p)
				continue
			}
			if deleting {
				continue
			}
			if err := c.release(ctx, o, p); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if deleting || !matches || p.DeletionTimestamp != nil || p.Namespace != o.rs.Namespace {
			continue
		}
		if adoptable == nil {
			err := c.canAdopt(ctx, o)
			adoptable = &err
		}
		if *adoptable != nil {
			errs = append(errs, fmt.Errorf("cannot adopt pod %s: %w", podKey(p), *adoptable))
			continue
		}
		if err := c.adopt(ctx, o, p); err != nil {
			if apierrors.IsNotFound(err) {
				continue
			}
			errs = append(errs, err)
			continue
		}
		claimed = append(claimed, p)
	}
	return claimed, errors.Join(errs...)
}

// canAdopt re-reads the owner from the API: the cache may not show yet that
// it is being deleted, and adopting pods into a dying owner would get them
// garbage-collected.
func (c *Controller) canAdopt(ctx context.Context, o owner) error {
	fresh, err := c.kind.fromAPI(ctx, o.rs.Namespace, o.rs.Name)
	if err != nil {
		return fmt.Errorf("re-read %s %s before adopting: %w", c.kind.gvk().Kind, ownerKey(o), err)
	}
	if fresh.rs.UID != o.rs.UID {
		return fmt.Errorf("%s %s was replaced (uid %s, expected %s)", c.kind.gvk().Kind, ownerKey(o), fresh.rs.UID, o.rs.UID)
	}
	if fresh.rs.DeletionTimestamp != nil {
		return fmt.Errorf("%s %s is being deleted", c.kind.gvk().Kind, ownerKey(o))
	}
	return nil
}

// refPatch is the strategic-merge patch of a pod's ownerReferences. Its uid
// makes the API refuse it if the pod was replaced by another of the same name.
type refPatch struct {
	Metadata refPatchMeta `json:"metadata"`
}

type refPatchMeta struct {
	OwnerReferences []map[string]any `json:"ownerReferences"`
	UID             types.UID        `json:"uid"`
}

func (c *Controller) adopt(ctx context.Context, o owner, p *corev1.Pod) error {
	gvk := c.kind.gvk()
	ref := map[string]any{
		"apiVersion":         gvk.GroupVersion().String(),
		"kind":               gvk.Kind,
		"name":               o.rs.Name,
		"uid":                o.rs.UID,
		"controller":         true,
		"blockOwnerDeletion": true,
	}
	body, err := json.Marshal(refPatch{Metadata: refPatchMeta{OwnerReferences: []map[string]any{ref}, UID: p.UID}})
	if err != nil {
		return fmt.Errorf("build adoption patch for pod %s: %w", podKey(p), err)
	}
	_, err = c.env.Client.CoreV1().Pods(p.Namespace).Patch(ctx, p.Name, types.StrategicMergePatchType, body, metav1.PatchOptions{})
	if err != nil {
		return fmt.Errorf("adopt pod %s into %s: %w", podKey(p), ownerKey(o), err)
	}
	return nil
}

func (c *Controller) release(ctx context.Context, o owner, p *corev1.Pod) error {
	ref := map[string]any{"$patch": "delete", "uid": o.rs.UID}
	body, err := json.Marshal(refPatch{Metadata: refPatchMeta{OwnerReferences: []map[string]any{ref}, UID: p.UID}})
	if err != nil {
		return fmt.Errorf("build release patch for pod %s: %w", podKey(p), err)
	}
	_, err = c.env.Client.CoreV1().Pods(p.Namespace).Patch(ctx, p.Name, types.StrategicMergePatchType, body, metav1.PatchOptions{})
	// A pod that is gone, or was replaced (the uid no longer matches), is
	// no longer ours to release.
	if err == nil || apierrors.IsNotFound(err) || apierrors.IsInvalid(err) {
		return nil
	}
	return fmt.Errorf("release pod %s from %s: %w", podKey(p), ownerKey(o), err)
}
