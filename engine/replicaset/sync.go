package replicaset

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
)

// Sync implements control.Controller: it reconciles the owner named by key
// ("namespace/name").
func (c *Controller) Sync(ctx context.Context, key string) error {
	if c.env == nil || c.env.Client == nil || c.env.Clock == nil || c.env.Listers.Pods == nil || c.env.Listers.PodIndex == nil {
		return errors.New(c.name + ": the runner gave no API client, clock or pod listers; wire control.Env fully before syncing")
	}
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		// A key that is not namespace/name can never sync; retrying would not help.
		return nil
	}
	o, err := c.kind.fromCache(namespace, name)
	if apierrors.IsNotFound(err) {
		c.exp.forget(key)
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s %s from the cache: %w", c.kind.gvk().Kind, key, err)
	}
	sel, err := c.kind.podSelector(o.rs)
	if err != nil {
		// Only a spec change can fix a bad selector, and that change will
		// enqueue the owner again.
		return nil
	}

	// Decide before reading pods: if creations or deletions are still in
	// flight, the pod cache is behind and the pods must only be counted.
	cacheTrusted := c.exp.satisfied(key)
	match := newLabelMatcher(sel)
	template := newLabelMatcher(labels.SelectorFromSet(o.rs.Spec.Template.Labels))
	// Only a scale-down ranks the pods; a guess from the indexed count is
	// enough to decide whether to read what ranking needs.
	manage := cacheTrusted && o.rs.DeletionTimestamp == nil
	forScaleDown := manage && c.owned.count(o.rs.UID) > desiredReplicas(o)
	pods, fromTally := c.fromTally(o, match, template, forScaleDown)
	if !fromTally {
		cs, err := c.candidatePods(o, match, template, forScaleDown, c.takeSpare())
		if err != nil {
			return err
		}
		defer c.putSpare(cs)
		if pods, err = c.claim(ctx, o, cs, template); err != nil {
			return err
		}
	}

	var manageErr error
	if manage {
		manageErr = c.manageReplicas(ctx, o, pods)
	}

	updated, err := c.updateStatus(ctx, o, c.calculateStatus(o, pods, manageErr))
	if err != nil {
		return fmt.Errorf("update status of %s %s: %w", c.kind.gvk().Kind, key, err)
	}

	// Pods that are ready but not yet available become available with no
	// event to announce it: look again once minReadySeconds have passed.
	spec := int32(desiredReplicas(updated))
	if mrs := updated.rs.Spec.MinReadySeconds; manageErr == nil && mrs > 0 &&
		updated.rs.Status.ReadyReplicas == spec && updated.rs.Status.AvailableReplicas != spec {
		if q := c.q(); q != nil {
			q.AddAfter(key, time.Duration(mrs)*time.Second)
		}
	}
	return manageErr
}
