package main

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// snapshotListers read what a drain preview needs from the API once — the
// node, its pods, every PodDisruptionBudget and DaemonSet — into listers
// of their own. The preview is then the same on the embedded and a live
// cluster, and reads no cache another goroutine is filling.
func snapshotListers(ctx context.Context, c kubernetes.Interface, node string) (control.Listers, error) {
	idx := func(k control.Kind) cache.Indexer {
		return cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(k))
	}
	nodes, pods, pdbs, dss := idx(control.Nodes), idx(control.Pods), idx(control.PodDisruptionBudgets), idx(control.DaemonSets)
	l := control.Listers{
		Nodes: corelisters.NewNodeLister(nodes), Pods: corelisters.NewPodLister(pods), PodIndex: pods,
		PodDisruptionBudgets: policylisters.NewPodDisruptionBudgetLister(pdbs), DaemonSets: appslisters.NewDaemonSetLister(dss),
	}
	n, err := c.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		// PreviewDrain says so, in its words.
		return l, nil
	case err != nil:
		return l, fmt.Errorf("cannot preview the drain of node %q: read it: %w", node, err)
	}
	add := func(store cache.Indexer, objs ...any) error {
		for _, o := range objs {
			if err := store.Add(o); err != nil {
				return fmt.Errorf("cannot preview the drain of node %q: %w", node, err)
			}
		}
		return nil
	}
	if err := add(nodes, n); err != nil {
		return l, err
	}
	podList, err := c.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("spec.nodeName", node).String()})
	if err != nil {
		return l, fmt.Errorf("cannot preview the drain of node %q: list its pods: %w", node, err)
	}
	for i := range podList.Items {
		if err := add(pods, &podList.Items[i]); err != nil {
			return l, err
		}
	}
	pdbList, err := c.PolicyV1().PodDisruptionBudgets("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return l, fmt.Errorf("cannot preview the drain of node %q: list the PodDisruptionBudgets: %w", node, err)
	}
	for i := range pdbList.Items {
		if err := add(pdbs, &pdbList.Items[i]); err != nil {
			return l, err
		}
	}
	dsList, err := c.AppsV1().DaemonSets("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return l, fmt.Errorf("cannot preview the drain of node %q: list the DaemonSets: %w", node, err)
	}
	for i := range dsList.Items {
		if err := add(dss, &dsList.Items[i]); err != nil {
			return l, err
		}
	}
	return l, nil
}
