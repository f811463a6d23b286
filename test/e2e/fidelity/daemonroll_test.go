package fidelity

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/drain"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/engine/workloads"
	"rollscope/model"
	"rollscope/model/kind"
	"rollscope/test/e2e/e2etest"
)

// A DaemonSet rolled while its nodes are rolled (kops style, one node
// surging at a time): on the embedded cluster and on kube-controller-manager
// 1.36.3 with hollow nodes, the same invariants hold at every change — never
// more than maxUnavailable nodes that had an available daemon pod without
// one, never two daemon pods on a node (maxSurge 0) — and both end alike:
// one pod on every eligible node, every node that joined during the roll
// with its pod, the same ControllerRevisions and the same final revision.

const rollNodes = 3

var rollGroup = nodegroup.Group{
	Name: "roll", Size: rollNodes, InitialSpec: "v1", Spec: "v2", BootTime: 2 * time.Second,
	MaxSurge: ptrIntOrString(intstr.FromInt32(1)), MaxUnavailable: ptrIntOrString(intstr.FromInt32(0)),
	Capacity: e2etest.Capacity("110", "8", "16Gi"),
}

func ptrIntOrString(v intstr.IntOrString) *intstr.IntOrString { return &v }

// daemonRoll watches one run: the nodes and the DaemonSet's pods, checking
// the invariants at every change.
type daemonRoll struct {
	mu    sync.Mutex
	now   func() time.Time
	nodes map[string]*corev1.Node
	pods  map[string]*corev1.Pod
	// served are the nodes that have had an available daemon pod; initial
	// are the nodes there when the roll started.
	served, initial map[string]bool
	maxUnavailable  int
	violations      []string
	worstWithout    int
	revisions       map[string]int64
	final           []string
	joined          []string // nodes that joined during the roll and got a pod
}

func newDaemonRoll(now func() time.Time) *daemonRoll {
	return &daemonRoll{now: now, nodes: map[string]*corev1.Node{}, pods: map[string]*corev1.Pod{}, served: map[string]bool{}, revisions: map[string]int64{}, maxUnavailable: 1}
}

// event takes one change of a node or a pod.
func (r *daemonRoll) event(ev watch.Event) {
	deleted := ev.Type == watch.Deleted
	r.mu.Lock()
	defer r.mu.Unlock()
	switch o := ev.Object.(type) {
	case *corev1.Node:
		if deleted {
			delete(r.nodes, o.Name)
		} else {
			r.nodes[o.Name] = o
		}
	case *corev1.Pod:
		if ref := metav1.GetControllerOf(o); ref == nil || ref.Kind != "DaemonSet" {
			return
		}
		if deleted {
			delete(r.pods, o.Name)
		} else {
			r.pods[o.Name] = o
		}
	default:
		return
	}
	r.check()
}

// eligible: a node a daemon pod should run on and that could serve it.
func eligible(n *corev1.Node) bool {
	return model.NodeReady(n) && !n.Spec.Unschedulable && !model.NodeDetached(n)
}

func (r *daemonRoll) check() {
	now := r.now()
	byNode := map[string]int{}
	available := map[string]bool{}
	for _, p := range r.pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		node := model.DaemonPodNode(p)
		byNode[node]++
		if model.IsPodAvailable(p, 0, now) {
			available[node] = true
			r.served[node] = true
		}
	}
	without := 0
	for name, n := range r.nodes {
		if eligible(n) && r.served[name] && !available[name] {
			without++
		}
		if byNode[name] > 1 {
			r.violations = append(r.violations, fmt.Sprintf("node %s runs %d daemon pods, maxSurge 0", name, byNode[name]))
		}
	}
	r.worstWithout = max(r.worstWithout, without)
	if without > r.maxUnavailable {
		r.violations = append(r.violations, fmt.Sprintf("%d nodes without an available daemon pod, maxUnavailable %d", without, r.maxUnavailable))
	}
}

// startRoll marks the nodes there now as the initial ones.
func (r *daemonRoll) startRoll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.initial = map[string]bool{}
	for name := range r.nodes {
		r.initial[name] = true
	}
}

// rollDone: the node roll is over (no node busy, the group at its size,
// none outdated) and the DaemonSet has one available, updated pod on every
// eligible node.
func rollDone(ctx context.Context, c kubernetes.Interface, ns string) (bool, string, error) {
	nodes, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, "", err
	}
	ready := 0
	for _, n := range nodes.Items {
		if nodegroup.GroupOf(&n) != rollGroup.Name {
			continue
		}
		if noderoll.Busy(&n) {
			return false, "node " + n.Name + " is still rolling", nil
		}
		if _, outdated := n.Annotations[model.NeedsUpdateAnnotation]; outdated {
			return false, "node " + n.Name + " still needs an update", nil
		}
		if eligible(&n) {
			ready++
		}
	}
	if ready != rollNodes {
		return false, fmt.Sprintf("%d of %d nodes eligible", ready, rollNodes), nil
	}
	ds, err := c.AppsV1().DaemonSets(ns).Get(ctx, "agent", metav1.GetOptions{})
	if err != nil {
		return false, "", err
	}
	if ok, state := daemonSetDone(ds, rollNodes); !ok || ds.Status.NumberMisscheduled != 0 {
		return false, state, nil
	}
	return noneTerminating(ctx, c, ns)
}

// finish reads the revisions and the final pods: one per eligible node,
// and which nodes joined during the roll.
func (r *daemonRoll) finish(ctx context.Context, c kubernetes.Interface, ns string) (err error) {
	if r.revisions, err = revisionNumbers(ctx, c, ns); err != nil {
		return err
	}
	pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	nodes, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	per := map[string][]string{}
	for _, p := range pods.Items {
		per[model.DaemonPodNode(&p)] = append(per[model.DaemonPodNode(&p)], p.Labels[model.RevisionHashLabel])
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range nodes.Items {
		if nodegroup.GroupOf(&n) != rollGroup.Name || !eligible(&n) {
			continue
		}
		r.final = append(r.final, fmt.Sprintf("node of %s: daemon pods %v", nodegroup.GroupOf(&n), per[n.Name]))
		if !r.initial[n.Name] && len(per[n.Name]) == 1 {
			r.joined = append(r.joined, n.Name)
		}
	}
	sort.Strings(r.final)
	return nil
}

// daemonForRoll rolls one node at a time, no surge.
func daemonForRoll() *appsv1.DaemonSet { return daemonSet("agent", 0, 1) }

// rollStep sets the DaemonSet's new image and requests the node roll.
func rollStep(ctx context.Context, c kubernetes.Interface, ns string, now time.Time) error {
	if err := workloads.SetImage(ctx, c, workloads.Target{Kind: kind.DaemonSet, Namespace: ns, Name: "agent"}, "agent", "registry.example.com/agent:2"); err != nil {
		return err
	}
	return noderoll.Request(ctx, c, rollGroup.Name, noderoll.Options{}, now)
}

func playDaemonRollEmbedded(t *testing.T) *daemonRoll {
	t.Helper()
	run := newEmbedded(t, "daemonset-node-roll", rollGroup)
	rec := newDaemonRoll(run.clock.Now)
	run.start(rec.event)
	defer run.close()
	ctx, c := t.Context(), run.client
	run.until("schedulable nodes", schedulable)
	if err := createWorkloads(ctx, c, "default", []any{daemonForRoll()}); err != nil {
		t.Fatal(err)
	}
	run.until("the daemon pods", func(ctx context.Context, c kubernetes.Interface) (bool, string, error) {
		return settled(ctx, c, "default")
	})
	rec.startRoll()
	if err := rollStep(ctx, c, "default", run.clock.Now()); err != nil {
		t.Fatal(err)
	}
	run.until("the end of the roll", func(ctx context.Context, c kubernetes.Interface) (bool, string, error) {
		return rollDone(ctx, c, "default")
	})
	if err := rec.finish(ctx, c, "default"); err != nil {
		t.Fatal(err)
	}
	return rec
}

// schedulable: the roll group's nodes are all Ready and schedulable.
func schedulable(ctx context.Context, c kubernetes.Interface) (bool, string, error) {
	nodes, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, "", err
	}
	n := 0
	for i := range nodes.Items {
		if e2etest.Schedulable(&nodes.Items[i]) {
			n++
		}
	}
	return n == rollNodes, fmt.Sprintf("%d of %d nodes schedulable", n, rollNodes), nil
}

func playDaemonRollLive(t *testing.T, c kubernetes.Interface, ns string) *daemonRoll {
	t.Helper()
	e2etest.Namespace(t, c, ns, time.Minute)
	rec := newDaemonRoll(time.Now)
	ctx := t.Context()
	w, err := c.CoreV1().Nodes().Watch(ctx, metav1.ListOptions{})
	stopNodes := followWatch(t, w, err, rec.event)
	defer stopNodes()
	w, err = c.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{})
	stopPods := followWatch(t, w, err, rec.event)
	defer stopPods()
	if err := createWorkloads(ctx, c, ns, []any{daemonForRoll()}); err != nil {
		t.Fatal(err)
	}
	e2etest.Poll(t, 2*time.Minute, "the daemon pods", func(ctx context.Context) (bool, string, error) { return settled(ctx, c, ns) })
	rec.startRoll()
	if err := rollStep(ctx, c, ns, time.Now()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	e2etest.Poll(t, 4*time.Minute, "the end of the roll", func(ctx context.Context) (bool, string, error) { return rollDone(ctx, c, ns) })
	stopNodes()
	stopPods()
	if err := rec.finish(t.Context(), c, ns); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestDaemonSetDuringANodeRollAgreesWithEmbedded(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real control plane")
	}
	emb := playDaemonRollEmbedded(t)
	// The hollow nodes, and the drain and node-roll controllers, as a live
	// simulate runs them.
	groups := []nodegroup.Group{rollGroup}
	client := e2etest.Start(t, e2etest.Setup{
		Controllers: []string{"daemonset-controller"},
		Nodes:       live.Nodes{Groups: groups, Images: workloadImages},
		Beside: func(r *live.Runner) {
			r.Add(drain.New(r.Env("drain-controller")))
			r.Add(noderoll.New(r.Env("node-roll-controller"), groups))
		},
	}).Admin
	real := playDaemonRollLive(t, client, "daemon-roll")

	for _, r := range []struct {
		name string
		rec  *daemonRoll
	}{{"embedded", emb}, {"live", real}} {
		if len(r.rec.violations) > 0 {
			t.Errorf("%s: %d invariant violations, first: %s", r.name, len(r.rec.violations), r.rec.violations[0])
		}
		if len(r.rec.joined) != rollNodes {
			t.Errorf("%s: %d nodes joined during the roll with their daemon pod (%v), want all %d replaced", r.name, len(r.rec.joined), r.rec.joined, rollNodes)
		}
		if r.rec.worstWithout != 1 {
			t.Errorf("%s: at worst %d nodes without an available daemon pod: the roll should use its maxUnavailable of 1", r.name, r.rec.worstWithout)
		}
	}
	if !maps.Equal(emb.revisions, real.revisions) {
		t.Errorf("controller revisions differ:\n embedded %v\n live     %v", emb.revisions, real.revisions)
	}
	if !slices.Equal(emb.final, real.final) {
		t.Errorf("final state differs:\n embedded %s\n live     %s", strings.Join(emb.final, "\n          "), strings.Join(real.final, "\n          "))
	}
	t.Logf("embedded: %v, joined %v; live: %v, joined %v; revisions %v", emb.final, emb.joined, real.final, real.joined, real.revisions)
}
