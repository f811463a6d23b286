package drain

import (
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	appslisters "k8s.io/client-go/listers/apps/v1"

	"rollscope/engine/control"
	"rollscope/model"
	"rollscope/model/kind"
)

// Preview is what a drain of one node would do, shown before it starts.
type Preview struct {
	Node string
	// Cordoned and State are the node's spec.unschedulable and drain
	// state annotation when the preview was read: a confirmation checks
	// them again before it sends.
	Cordoned bool
	State    string
	// Plan is the filters' verdict: the pods evicted, the warnings, and the
	// pods that make the drain refuse to start.
	Plan Plan
	// Budgets are the PodDisruptionBudgets covering pods to evict, with
	// the disruptions each allows now.
	Budgets []Budget
	// Blocked are the pods to evict that their budget will hold back at
	// first (more of its pods on the node than disruptions allowed): the
	// drain waits for them, retrying every 5 s.
	Blocked []BlockedPod
}

// BlockedPod is a pod a PodDisruptionBudget will not let go yet.
type BlockedPod struct {
	Pod    string // namespace/name
	Budget Budget
}

// String is the blocked annotation's entry for the pod.
func (b BlockedPod) String() string {
	if b.Budget.Name == "" {
		return b.Pod + ": eviction refused with 429 (no budget in the cache explains it yet)"
	}
	return fmt.Sprintf("%s: %s", b.Pod, b.Budget)
}

// PreviewDrain computes what draining node with o would do, from the
// listers' caches. It changes nothing.
func PreviewDrain(l control.Listers, node string, o Options, now time.Time) (Preview, error) {
	n, err := l.Nodes.Get(node)
	if err != nil {
		if apierrors.IsNotFound(err) {
			return Preview{}, fmt.Errorf("cannot drain node %q: no such node (it may have been deleted; list nodes to pick another): %w", node, err)
		}
		return Preview{}, fmt.Errorf("cannot preview the drain of node %q: read it from the cache: %w", node, err)
	}
	pods, err := podsOn(l, node)
	if err != nil {
		return Preview{}, err
	}
	p := Preview{Node: node, Cordoned: n.Spec.Unschedulable, State: n.Annotations[model.DrainStateAnnotation],
		Plan: Filter(pods, o, daemonSetLookup(l), now)}
	used := map[string]int32{}
	seen := map[string]bool{}
	for _, pod := range p.Plan.Evict {
		if pod.DeletionTimestamp != nil || o.DisableEviction {
			continue
		}
		for _, b := range budgetsFor(l.PodDisruptionBudgets, pod) {
			key := b.Namespace + "/" + b.Name
			if !seen[key] {
				seen[key] = true
				p.Budgets = append(p.Budgets, b)
			}
			used[key]++
			if used[key] > b.DisruptionsAllowed {
				p.Blocked = append(p.Blocked, BlockedPod{Pod: pod.Namespace + "/" + pod.Name, Budget: b})
			}
		}
	}
	return p, nil
}

// podsOn lists the pods bound to node, in name order so that drains evict
// in a reproducible order.
func podsOn(l control.Listers, node string) ([]*corev1.Pod, error) {
	objs, err := l.PodIndex.ByIndex(control.IndexByNode, node)
	if err != nil {
		return nil, fmt.Errorf("list the pods of node %s from the cache: %w", node, err)
	}
	pods := make([]*corev1.Pod, 0, len(objs))
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok {
			pods = append(pods, p)
		}
	}
	sort.Slice(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	return pods, nil
}

// daemonSetLookup answers from the DaemonSet cache with the error a GET
// would return.
func daemonSetLookup(l control.Listers) DaemonSetLookup {
	ix := l.Workloads[kind.DaemonSet]
	if ix == nil {
		return func(namespace, name string) error { return nil }
	}
	sets := appslisters.NewDaemonSetLister(ix)
	return func(namespace, name string) error {
		_, err := sets.DaemonSets(namespace).Get(name)
		return err
	}
}
