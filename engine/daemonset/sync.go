package daemonset

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"rollscope/engine/control"
	"rollscope/model"
)

// Sync implements control.Controller: syncDaemonSet for the set at key.
func (c *Controller) Sync(ctx context.Context, key string) error {
	if c.env.Client == nil || c.sets == nil {
		return fmt.Errorf("daemonset controller: no client or listers")
	}
	ds, found, err := control.Lookup(key, c.get)
	if err != nil {
		return err
	}
	if !found {
		// Gone: what its last sync sent is no longer awaited.
		c.exp.forget(key)
		return nil
	}
	nodes, err := c.env.Listers.Nodes.List(labels.Everything())
	if err != nil {
		return err
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	if ds.DeletionTimestamp != nil {
		return nil
	}
	cur, old, err := c.constructHistory(ctx, ds)
	if err != nil {
		return fmt.Errorf("construct the history of daemon set %s: %w", ds.Name, err)
	}
	if cur == nil {
		// A revision name collision: the count went up, try again.
		c.keys.Add(key)
		return nil
	}
	hash := cur.Labels[model.RevisionHashLabel]
	judged := verdicts(ds, nodes)
	if !c.exp.satisfied(key) {
		// Only the status, without observing the generation: nothing of
		// this generation was acted on.
		return c.updateStatus(ctx, key, ds, nodes, judged, hash, false)
	}
	byNode := c.podsByNode(ds)
	err = c.manage(ctx, key, ds, nodes, judged, byNode, hash)
	// The rolling update runs only when manage sent nothing (its writes
	// are expected until seen), so the pods it reads are manage's.
	if err == nil && c.exp.satisfied(key) && ds.Spec.UpdateStrategy.Type == appsv1.RollingUpdateDaemonSetStrategyType {
		err = c.rollingUpdate(ctx, key, ds, nodes, judged, byNode, hash)
	}
	if err == nil {
		err = c.cleanupHistory(ctx, ds, byNode, old)
	}
	return errors.Join(err, c.updateStatus(ctx, key, ds, nodes, judged, hash, true))
}

// podsByNode groups the DaemonSet's pods by the node they are for, leaving
// out finished pods that are already being deleted.
func (c *Controller) podsByNode(ds *appsv1.DaemonSet) map[string][]podRef {
	sel, err := metav1.LabelSelectorAsSelector(ds.Spec.Selector)
	if err != nil {
		return nil
	}
	out := map[string][]podRef{}
	for _, p := range c.env.Listers.OwnedPods(ds, sel) {
		if (p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded) && p.DeletionTimestamp != nil {
			continue
		}
		if node := model.DaemonPodNode(p); node != "" {
			out[node] = append(out[node], p)
		}
	}
	for _, pods := range out {
		sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	}
	return out
}

// rollingUpdate is one pass of the rolling update over every node the set
// should run on or has pods on, in name order.
func (c *Controller) rollingUpdate(ctx context.Context, key string, ds *appsv1.DaemonSet, nodes []*corev1.Node, judged map[string]verdict, pods map[string][]podRef, hash string) error {
	byNode := maps.Clone(pods)
	desired := 0
	for _, n := range nodes {
		if judged[n.Name].run {
			desired++
			if _, ok := byNode[n.Name]; !ok {
				byNode[n.Name] = nil
			}
		}
	}
	surge, unavailable, err := model.DaemonSetBudget(ds, desired)
	if err != nil {
		return fmt.Errorf("daemon set %s: %w", ds.Name, err)
	}
	var view []model.DaemonNode
	for _, name := range slices.Sorted(maps.Keys(byNode)) {
		// A node that is gone should run nothing.
		view = append(view, model.DaemonNode{Name: name, ShouldRun: judged[name].run, Pods: byNode[name]})
	}
	step := model.DaemonSetRollingUpdate(ds, view, hash, surge, unavailable, desired, c.env.Clock.Now())
	return c.syncNodes(ctx, key, ds, step.Delete, step.CreateOn, hash)
}

// updateStatus counts the daemon pods (updateDaemonSetStatus) and writes the
// status when it changed.
func (c *Controller) updateStatus(ctx context.Context, key string, ds *appsv1.DaemonSet, nodes []*corev1.Node, judged map[string]verdict, hash string, observe bool) error {
	byNode := c.podsByNode(ds)
	generation, err := model.DaemonSetTemplateGeneration(ds)
	if err != nil {
		generation = nil
	}
	now := c.env.Clock.Now()
	var desired, scheduled, misscheduled, ready, updated, available int32
	for _, n := range nodes {
		pods := byNode[n.Name]
		if !judged[n.Name].run {
			if len(pods) > 0 {
				misscheduled++
			}
			continue
		}
		desired++
		if len(pods) == 0 {
			continue
		}
		scheduled++
		pods = slices.Clone(pods)
		byCreation(pods)
		p := pods[0]
		if model.IsPodReady(p) {
			ready++
			if model.IsPodAvailable(p, ds.Spec.MinReadySeconds, now) {
				available++
			}
		}
		if model.IsDaemonPodUpdated(p, hash, generation) {
			updated++
		}
	}
	s := appsv1.DaemonSetStatus{
		DesiredNumberScheduled: desired,
		CurrentNumberScheduled: scheduled,
		NumberMisscheduled:     misscheduled,
		NumberReady:            ready,
		UpdatedNumberScheduled: updated,
		NumberAvailable:        available,
		NumberUnavailable:      desired - available,
		ObservedGeneration:     ds.Status.ObservedGeneration,
		CollisionCount:         ds.Status.CollisionCount,
		Conditions:             ds.Status.Conditions,
	}
	if observe {
		s.ObservedGeneration = ds.Generation
	}
	if ds.Spec.MinReadySeconds > 0 && ready != available {
		c.keys.AddAfter(key, time.Duration(ds.Spec.MinReadySeconds)*time.Second)
	}
	if sameCounts(ds.Status, s) {
		return nil
	}
	api := c.env.Client.AppsV1().DaemonSets(ds.Namespace)
	for attempt := 0; ; attempt++ {
		next := ds.DeepCopy()
		next.Status = s
		_, err := api.UpdateStatus(ctx, next, metav1.UpdateOptions{})
		if err == nil || attempt == 1 {
			return err
		}
		fresh, gerr := api.Get(ctx, ds.Name, metav1.GetOptions{})
		if gerr != nil {
			return err
		}
		ds = fresh
		s.CollisionCount = fresh.Status.CollisionCount
	}
}

func sameCounts(a, b appsv1.DaemonSetStatus) bool {
	return a.ObservedGeneration == b.ObservedGeneration && a.DesiredNumberScheduled == b.DesiredNumberScheduled &&
		a.CurrentNumberScheduled == b.CurrentNumberScheduled && a.NumberMisscheduled == b.NumberMisscheduled &&
		a.NumberReady == b.NumberReady && a.UpdatedNumberScheduled == b.UpdatedNumberScheduled &&
		a.NumberAvailable == b.NumberAvailable && a.NumberUnavailable == b.NumberUnavailable
}
