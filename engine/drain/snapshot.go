package drain

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model/kind"
)

// PreviewFromAPI is PreviewDrain on what the API holds now: it reads the
// node, its pods, every PodDisruptionBudget and DaemonSet once into
// listers of its own. The preview is then the same on the embedded and a
// live cluster, and reads no cache another goroutine is filling. It
// changes nothing.
func PreviewFromAPI(ctx context.Context, c kubernetes.Interface, node string, o Options, now time.Time) (Preview, error) {
	l, err := snapshot(ctx, c, node)
	if err != nil {
		return Preview{}, err
	}
	return PreviewDrain(l, node, o, now)
}

// snapshot reads what a drain preview needs into listers.
func snapshot(ctx context.Context, c kubernetes.Interface, node string) (control.Listers, error) {
	idx := func(k control.Kind) cache.Indexer {
		return cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(k))
	}
	nodes, pods, pdbs, dss := idx(control.Nodes), idx(control.Pods), idx(control.PodDisruptionBudgets), idx(control.Workload(kind.DaemonSet))
	l := control.Listers{
		Nodes: corelisters.NewNodeLister(nodes), Pods: corelisters.NewPodLister(pods), PodIndex: pods,
		PodDisruptionBudgets: policylisters.NewPodDisruptionBudgetLister(pdbs), Workloads: map[kind.Kind]cache.Indexer{kind.DaemonSet: dss},
	}
	fail := func(what string, err error) (control.Listers, error) {
		return l, fmt.Errorf("cannot preview the drain of node %q: %s: %w", node, what, err)
	}
	n, err := c.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		// PreviewDrain says so, in its words.
		return l, nil
	case err != nil:
		return fail("read it", err)
	}
	if err := nodes.Add(n); err != nil {
		return fail("keep it", err)
	}
	podList, err := c.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("spec.nodeName", node).String()})
	if err != nil {
		return fail("list its pods", err)
	}
	pdbList, err := c.PolicyV1().PodDisruptionBudgets("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return fail("list the PodDisruptionBudgets", err)
	}
	dsList, err := c.AppsV1().DaemonSets("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return fail("list the DaemonSets", err)
	}
	for _, err := range []error{fill(pods, podList.Items), fill(pdbs, pdbList.Items), fill(dss, dsList.Items)} {
		if err != nil {
			return fail("keep what was read", err)
		}
	}
	return l, nil
}

// fill adds every item of a list to store.
func fill[T any](store cache.Indexer, items []T) error {
	for i := range items {
		if err := store.Add(&items[i]); err != nil {
			return err
		}
	}
	return nil
}
