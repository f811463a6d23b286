package replicaset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// takeSpare returns the slices the last sync gave back, to fill again: a
// sync of a 100,000-pod ReplicaSet would otherwise allocate megabytes of
// them each time. Syncs running at once (a runner is free to) get fresh
// ones.
func (c *Controller) takeSpare() *candidates {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.spare
	c.spare = nil
	if s == nil {
		s = &candidates{}
	}
	return s
}

// putSpare keeps the slices of cs for the next sync, without the pods they
// point to.
func (c *Controller) putSpare(cs candidates) {
	clear(cs.owned.pods[:cap(cs.owned.pods)])
	s := &candidates{matches: cs.matches[:0], owned: claimedPods{
		pods: cs.owned.pods[:0], facts: cs.owned.facts[:0],
		keys: cs.owned.keys[:0], nodes: cs.owned.nodes[:0], created: cs.owned.created[:0],
		order: cs.owned.order[:0], majors: cs.owned.majors[:0],
	}}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spare = s
}

// candidates are the active pods an owner may claim: those whose controller
// reference names it (from the handlers' owned index), each with whether the
// owner's selector still matches it, and orphans its selector matches.
type candidates struct {
	owned   claimedPods
	matches []bool // of owned
	orphans []*corev1.Pod
}

// claimedPods are pods an owner keeps, each with what its status counts of
// it. For a scale-down they are in name order (byName) and come with what
// their ranking reads, in step with pods: the static part of each victim
// key, the node's number (ownedIndex.nodes) and the creation time.
type claimedPods struct {
	pods    []*corev1.Pod
	facts   []podFacts
	byName  bool
	keys    []victimKey
	nodes   []int32
	created []time.Time
	// order and majors are room for the scale-down's sort.
	order  []int32
	majors []uint64
	// tally, when set, stands for the pods: a sync that keeps every pod it
	// controls, adopts none and ranks none reads only its counts.
	tally *podTally
}

// len is how many pods are kept.
func (cp *claimedPods) len() int {
	if cp.tally != nil {
		return int(cp.tally.claimed)
	}
	return len(cp.pods)
}

func (cp *claimedPods) add(p *corev1.Pod, f podFacts) {
	cp.pods = append(cp.pods, p)
	cp.facts = append(cp.facts, f)
}

// keep moves pod i to position at, with what goes with it.
func (cp *claimedPods) keep(i, at int) {
	cp.pods[at], cp.facts[at] = cp.pods[i], cp.facts[i]
	if cp.byName {
		cp.keys[at], cp.nodes[at], cp.created[at] = cp.keys[i], cp.nodes[i], cp.created[i]
	}
}

// truncate keeps the first n pods.
func (cp *claimedPods) truncate(n int) {
	cp.pods, cp.facts = cp.pods[:n], cp.facts[:n]
	if cp.byName {
		cp.keys, cp.nodes, cp.created = cp.keys[:n], cp.nodes[:n], cp.created[:n]
	}
}

// candidatePods reads the owner's pods into spare's slices (the caller
// gives them back with putSpare once the sync is done with them);
// forScaleDown asks for them in name order with what their ranking reads.
func (c *Controller) candidatePods(o owner, sel, template labelMatcher, forScaleDown bool, spare *candidates) (candidates, error) {
	n := c.owned.count(o.rs.UID)
	cs := candidates{matches: slices.Grow(spare.matches[:0], n)}
	owned := &cs.owned
	owned.pods, owned.facts, owned.byName = slices.Grow(spare.owned.pods[:0], n), slices.Grow(spare.owned.facts[:0], n), forScaleDown
	if forScaleDown {
		owned.keys, owned.nodes, owned.created = slices.Grow(spare.owned.keys[:0], n), slices.Grow(spare.owned.nodes[:0], n), slices.Grow(spare.owned.created[:0], n)
		owned.order, owned.majors = slices.Grow(spare.owned.order[:0], n), slices.Grow(spare.owned.majors[:0], n)
	}
	c.owned.podsOf(o.rs.UID, o.rs.Namespace, sel, &template, true, forScaleDown, func(e *ownedPod, matches bool, f podFacts) {
		owned.add(e.pod, f)
		if forScaleDown {
			owned.keys = append(owned.keys, e.victim)
			owned.nodes = append(owned.nodes, e.node)
			owned.created = append(owned.created, e.victim.created.time())
		}
		cs.matches = append(cs.matches, matches)
	})
	cs.orphans = c.orphansFor(o, sel)
	return cs, nil
}

// orphansFor are the active pods without a controller that o's selector
// matches, in name order.
func (c *Controller) orphansFor(o owner, sel labelMatcher) []*corev1.Pod {
	var out []*corev1.Pod
	for _, name := range c.orphans.names(o.rs.Namespace) {
		p, err := c.env.Listers.Pods.Pods(o.rs.Namespace).Get(name)
		if err != nil {
			continue // deleted since; its event will update the set
		}
		if metav1.GetControllerOfNoCopy(p) == nil && model.IsPodActive(p) && sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

// fromTally is the claim of a sync that needs no pod: one that does not
// scale down (rank victims), whose owner controls no active pod its
// selector no longer matches (to release) and sees no orphan (to adopt),
// and whose pods are available as soon as ready (minReadySeconds 0), so
// that its status counts are the owned index's tally. ok is false when the
// sync must read its pods.
func (c *Controller) fromTally(o owner, sel, template labelMatcher, forScaleDown bool) (claimedPods, bool) {
	if forScaleDown || o.rs.Spec.MinReadySeconds != 0 {
		return claimedPods{}, false
	}
	t := c.owned.tallied(o.rs.UID, o.rs.Namespace, sel, template)
	if t.active != t.claimed || len(c.orphansFor(o, sel)) > 0 {
		return claimedPods{}, false
	}
	return claimedPods{tally: &t}, true
}

// claim returns the pods the owner keeps: those it controls whose labels
// still match, plus the orphans it adopts. Pods it controls that no longer
// match are released, so that relabelling a pod takes it out of service
// without deleting it. An owner being deleted neither adopts nor releases.
// Adoptions and releases are made in pod name order. The pods adopted are
// added with what their status counts, and no longer in name order.
func (c *Controller) claim(ctx context.Context, o owner, cs candidates, template labelMatcher) (claimedPods, error) {
	claimed := cs.owned
	var release []*corev1.Pod
	kept := 0
	for i, p := range claimed.pods {
		if cs.matches[i] {
			if i != kept { // usually every pod matches and none moves
				claimed.keep(i, kept)
			}
			kept++
		} else {
			release = append(release, p)
		}
	}
	claimed.truncate(kept)
	if o.rs.DeletionTimestamp != nil {
		return claimed, nil
	}
	var errs []error
	sortByName(release)
	for _, p := range release {
		if err := c.release(ctx, o, p); err != nil {
			errs = append(errs, err)
		}
	}
	if len(cs.orphans) > 0 {
		if err := c.canAdopt(ctx, o); err != nil {
			return claimed, errors.Join(append(errs, fmt.Errorf("cannot adopt pods: %w", err))...)
		}
	}
	for _, p := range cs.orphans { // already in name order
		if err := c.adopt(ctx, o, p); err != nil {
			if !apierrors.IsNotFound(err) {
				errs = append(errs, err)
			}
			continue
		}
		f := factsOf(p)
		f.fullyLabeled = template.Matches(p.Labels)
		claimed.byName = false
		claimed.add(p, f)
	}
	return claimed, errors.Join(errs...)
}

func sortByName(pods []*corev1.Pod) {
	// Names are unique in a namespace, so an unstable sort is as good.
	slices.SortFunc(pods, func(a, b *corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
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
