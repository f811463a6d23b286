package embedded_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/drain"
	"rollscope/engine/embedded"
	"rollscope/engine/noderoll"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/engine/trace"
	"rollscope/kube/memapi"
	"rollscope/model"
)

// rollRun is an embedded cluster with a node roll or drain in it, and what
// an observer saw at every change: how many nodes drained at once, how
// many were detached at once, and every moment a PodDisruptionBudget had
// fewer healthy pods than it asks for.
type rollRun struct {
	t       testing.TB
	api     *memapi.Cluster
	clock   *sim.Clock
	sc      *scenario.Scenario
	cluster *embedded.Cluster

	maxDraining, maxDetached int
	// maxDrainingBeforeFirstTermination is the concurrency of the roll's
	// first step: kops takes the first node alone when none is up to date.
	maxDrainingBeforeFirstTermination int
	terminated                        []string
	everDetached                      map[string]bool
	taintedBeforeFirstTermination     int
	blocked                           []string // drain-blocked annotations seen
	armed                             map[string]bool
	pdbViolations                     []string
	podsDeleted                       int
	// skipBudgetCheck turns off the per-change budget check, which lists
	// a budget's pods at every pod change: too slow for the benchmark.
	skipBudgetCheck bool
	// detachedAt is when each surge node was detached; firstFreshReady
	// when an up-to-date node was first Ready.
	detachedAt      []time.Time
	firstFreshReady time.Time
	// also, when set, sees every change after the run's own observer.
	also sim.Observer
}

func startRollRun(t testing.TB, src string) *rollRun {
	t.Helper()
	sc, err := scenario.Parse("roll.yaml", []byte(src))
	if err != nil {
		t.Fatalf("scenario: %v", err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	r := &rollRun{t: t, api: api, clock: clock, sc: sc, everDetached: map[string]bool{}, armed: map[string]bool{}}
	r.cluster, err = embedded.Start(context.Background(), api, clock, sc, embedded.Options{Observers: []sim.Observer{r.observe}})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return r
}

// restart stops the cluster's runner, as killing rollscope does, and
// starts a new one on the same API with fresh caches and controllers.
func (r *rollRun) restart() {
	r.t.Helper()
	r.cluster.Runner.Close()
	again := *r.sc
	again.Objects, again.Actions = nil, nil
	var err error
	r.cluster, err = embedded.Start(context.Background(), replay{r.api}, r.clock, &again, embedded.Options{Observers: []sim.Observer{r.observe}})
	if err != nil {
		r.t.Fatalf("restart: %v", err)
	}
}

// replay hands a new runner every object that exists before the changes
// that follow, as an informer's initial list does.
type replay struct{ api *memapi.Cluster }

func (p replay) Client() kubernetes.Interface { return p.api.Client() }

func (p replay) Subscribe(fn func(watch.Event)) func() {
	ctx, c := context.Background(), p.api.Client()
	all := metav1.ListOptions{}
	var objs []runtime.Object
	if l, err := c.CoreV1().Nodes().List(ctx, all); err == nil {
		for i := range l.Items {
			objs = append(objs, &l.Items[i])
		}
	}
	if l, err := c.AppsV1().Deployments("").List(ctx, all); err == nil {
		for i := range l.Items {
			objs = append(objs, &l.Items[i])
		}
	}
	if l, err := c.AppsV1().ReplicaSets("").List(ctx, all); err == nil {
		for i := range l.Items {
			objs = append(objs, &l.Items[i])
		}
	}
	if l, err := c.CoreV1().Pods("").List(ctx, all); err == nil {
		for i := range l.Items {
			objs = append(objs, &l.Items[i])
		}
	}
	if l, err := c.PolicyV1().PodDisruptionBudgets("").List(ctx, all); err == nil {
		for i := range l.Items {
			objs = append(objs, &l.Items[i])
		}
	}
	for _, o := range objs {
		fn(watch.Event{Type: watch.Added, Object: o})
	}
	return p.api.Subscribe(fn)
}

func (r *rollRun) observe(now time.Time, ev watch.Event) {
	if r.also != nil {
		defer r.also(now, ev)
	}
	l := r.cluster.Runner.Listers()
	switch o := ev.Object.(type) {
	case *corev1.Node:
		if ev.Type == watch.Deleted {
			r.terminated = append(r.terminated, o.Name)
		}
		draining, detached, tainted := 0, 0, 0
		for _, n := range r.nodes() {
			for _, t := range n.Spec.Taints {
				if t.Key == noderoll.TaintScheduledForUpdate.Key {
					tainted++
				}
			}
			if _, outdated := n.Annotations[model.NeedsUpdateAnnotation]; !outdated && model.NodeReady(n) && r.firstFreshReady.IsZero() {
				r.firstFreshReady = now
			}
			if n.Annotations[model.DetachedAnnotation] == "true" && !r.everDetached[n.Name] {
				r.detachedAt = append(r.detachedAt, now)
			}
			if n.Annotations[model.RollNodeAnnotation] == model.RollStepDraining || isDraining(n) {
				draining++
			}
			if n.Annotations[model.DetachedAnnotation] == "true" {
				detached++
				r.everDetached[n.Name] = true
			}
			if b := n.Annotations[model.DrainBlockedAnnotation]; b != "" && (len(r.blocked) == 0 || r.blocked[len(r.blocked)-1] != b) {
				r.blocked = append(r.blocked, b)
			}
		}
		r.maxDraining = max(r.maxDraining, draining)
		r.maxDetached = max(r.maxDetached, detached)
		if len(r.terminated) == 0 {
			r.taintedBeforeFirstTermination = max(r.taintedBeforeFirstTermination, tainted)
			r.maxDrainingBeforeFirstTermination = max(r.maxDrainingBeforeFirstTermination, draining)
		}
	case *corev1.Pod:
		if ev.Type == watch.Deleted {
			r.podsDeleted++
		}
		if !r.skipBudgetCheck {
			r.checkBudgets(now, l.PodDisruptionBudgets)
		}
	}
}

func isDraining(n *corev1.Node) bool {
	s := n.Annotations[model.DrainStateAnnotation]
	return s == model.DrainDraining || s == model.DrainBlocked
}

// checkBudgets counts a violation whenever a budget, once met, has fewer
// healthy pods (Ready, not terminating) than its minAvailable.
func (r *rollRun) checkBudgets(now time.Time, l interface {
	List(labels.Selector) ([]*policyv1.PodDisruptionBudget, error)
}) {
	pdbs, _ := l.List(labels.Everything())
	for _, pdb := range pdbs {
		if pdb.Spec.MinAvailable == nil {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil {
			continue
		}
		pods, _ := r.cluster.Runner.Listers().Pods.Pods(pdb.Namespace).List(sel)
		healthy := 0
		for _, p := range pods {
			if p.DeletionTimestamp == nil && podReady(p) {
				healthy++
			}
		}
		want := pdb.Spec.MinAvailable.IntValue()
		key := pdb.Namespace + "/" + pdb.Name
		if healthy >= want {
			r.armed[key] = true
		} else if r.armed[key] {
			r.pdbViolations = append(r.pdbViolations, fmt.Sprintf("t=%v %s: %d healthy < minAvailable %d", now.Sub(epoch), key, healthy, want))
		}
	}
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func (r *rollRun) nodes() []*corev1.Node {
	ns, _ := r.cluster.Runner.Listers().Nodes.List(labels.Everything())
	sort.Slice(ns, func(i, j int) bool { return ns[i].Name < ns[j].Name })
	return ns
}

func (r *rollRun) node(name string) *corev1.Node {
	r.t.Helper()
	n, err := r.api.Client().CoreV1().Nodes().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		r.t.Fatalf("node %s: %v", name, err)
	}
	return n
}

// runFor advances the cluster by d of virtual time.
func (r *rollRun) runFor(d time.Duration) {
	r.t.Helper()
	until := r.clock.Now().Add(d).Sub(r.cluster.Runner.Start())
	if _, err := r.cluster.Runner.Run(context.Background(), sim.RunOptions{Until: until}); err != nil {
		r.t.Fatal(err)
	}
}

// runUntil advances until cond holds, or fails after limit.
func (r *rollRun) runUntil(limit time.Duration, what string, cond func() bool) {
	r.t.Helper()
	for end := r.clock.Now().Add(limit); !cond(); {
		if !r.clock.Now().Before(end) {
			r.t.Fatalf("%s: not reached within %v", what, limit)
		}
		r.runFor(time.Second)
	}
}

// finish runs until the roll is over and the cluster settled.
func (r *rollRun) finish() {
	r.t.Helper()
	end, err := r.cluster.Run(context.Background(), 0)
	if err != nil || end != sim.EndQuiescent {
		r.t.Fatalf("run ended %q: %v", end, err)
	}
}

// outdated names the nodes still marked for update.
func (r *rollRun) outdated() []string {
	var out []string
	for _, n := range r.nodes() {
		if _, ok := n.Annotations[model.NeedsUpdateAnnotation]; ok {
			out = append(out, n.Name)
		}
	}
	return out
}

func (r *rollRun) requestRoll(group string, o noderoll.Options) {
	r.t.Helper()
	if err := noderoll.Request(context.Background(), r.api.Client(), group, o, r.clock.Now()); err != nil {
		r.t.Fatalf("request roll: %v", err)
	}
}

func (r *rollRun) requireNoBudgetViolations() {
	r.t.Helper()
	if len(r.pdbViolations) > 0 {
		r.t.Fatalf("%d PodDisruptionBudget violations, first: %v", len(r.pdbViolations), r.pdbViolations[0])
	}
}

// groupScenario is a group of outdated nodes and a deployment with a PDB.
func groupScenario(role string, size, podsPerNode, replicas, minAvailable int, surge, unavailable string) string {
	rollout := ""
	if surge != "" {
		rollout += "\n    maxSurge: " + surge
	}
	if unavailable != "" {
		rollout += "\n    maxUnavailable: " + unavailable
	}
	objects := ""
	if replicas > 0 {
		objects = fmt.Sprintf(`
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: %d
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: web, image: web:1, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
  ---
  apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: {name: web}
  spec:
    minAvailable: %d
    selector: {matchLabels: {app: web}}
`, replicas, minAvailable)
	}
	return fmt.Sprintf(`name: roll
seed: 3
nodeGroups:
  - name: pool
    role: %s
    size: %d
    capacity: {pods: %d, cpu: "64", memory: 256Gi}
    initialSpec: v1
    spec: v2
    bootTime: 20s%s
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
%s`, role, size, podsPerNode, rollout, objects)
}

func TestDrainWaitsForTheDisruptionBudgetThenProceeds(t *testing.T) {
	r := startRollRun(t, groupScenario("Node", 3, 4, 4, 3, "", "1"))
	r.runFor(time.Minute)
	r.requestRoll("pool", noderoll.Options{})
	r.finish()
	if len(r.blocked) == 0 {
		t.Fatal("no drain ever waited on the PodDisruptionBudget; the scenario must make one wait")
	}
	if b := r.blocked[0]; !strings.Contains(b, "PodDisruptionBudget default/web allows 0 disruptions") {
		t.Errorf("blocked annotation %q, want it to name the budget and its allowed disruptions", b)
	}
	if got := r.outdated(); len(got) != 0 {
		t.Errorf("nodes still outdated after the roll: %v", got)
	}
	if len(r.terminated) != 3 || len(r.nodes()) != 3 {
		t.Errorf("terminated %v, nodes now %d; want the 3 old nodes replaced by 3 new ones", r.terminated, len(r.nodes()))
	}
	r.requireNoBudgetViolations()
	d, _ := r.cluster.Runner.Listers().Deployments.Deployments("default").Get("web")
	if d.Status.AvailableReplicas != 4 {
		t.Errorf("web has %d available after the roll, want 4", d.Status.AvailableReplicas)
	}
}

func TestFirstNodeAloneWhenNoneIsUpToDate(t *testing.T) {
	r := startRollRun(t, groupScenario("Node", 5, 10, 4, 3, "", "2"))
	r.runFor(time.Minute)
	r.requestRoll("pool", noderoll.Options{})
	r.finish()
	if r.maxDrainingBeforeFirstTermination != 1 {
		t.Errorf("%d nodes drained before the first was terminated, want 1: kops takes the first node alone", r.maxDrainingBeforeFirstTermination)
	}
	if r.maxDraining != 2 {
		t.Errorf("at most %d nodes drained at once, want maxUnavailable 2 after the first", r.maxDraining)
	}
	if r.taintedBeforeFirstTermination != 5 {
		t.Errorf("%d nodes tainted %s before the first termination, want all 5", r.taintedBeforeFirstTermination, noderoll.TaintScheduledForUpdate.Key)
	}
	if len(r.outdated()) != 0 || len(r.everDetached) != 0 {
		t.Errorf("outdated left %v, detached %v; want none of either without surge", r.outdated(), r.everDetached)
	}
	r.requireNoBudgetViolations()
}

func TestTwentyNodesWithMaxSurge2AndMaxUnavailable10Percent(t *testing.T) {
	r := startRollRun(t, groupScenario("Node", 20, 10, 40, 30, "2", "10%"))
	r.runFor(time.Minute)
	r.requestRoll("pool", noderoll.Options{})
	r.finish()
	if r.maxDetached != 2 || len(r.everDetached) != 2 {
		t.Errorf("detached at most %d at once, %d in all; want maxSurge 2 (never more)", r.maxDetached, len(r.everDetached))
	}
	if r.maxDraining != 4 {
		t.Errorf("at most %d nodes drained at once, want maxSurge 2 + maxUnavailable 10%% of 20 = 4", r.maxDraining)
	}
	// None up to date: kops detaches one node first, waits for its
	// replacement and validates, then detaches the rest.
	if len(r.detachedAt) != 2 || !r.detachedAt[0].Before(r.firstFreshReady) || r.detachedAt[1].Before(r.firstFreshReady) {
		t.Errorf("detached at %v, first up-to-date node Ready at %v; want one detach before it and the other after", r.detachedAt, r.firstFreshReady)
	}
	// Detached nodes are terminated last.
	last := r.terminated[len(r.terminated)-2:]
	for _, n := range last {
		if !r.everDetached[n] {
			t.Errorf("last terminated %v, want the detached nodes %v last", last, r.everDetached)
		}
	}
	if len(r.outdated()) != 0 || len(r.terminated) != 20 {
		t.Errorf("outdated %v, terminated %d; want all 20 replaced", r.outdated(), len(r.terminated))
	}
	r.requireNoBudgetViolations()
}

func TestMastersNeverSurge(t *testing.T) {
	r := startRollRun(t, groupScenario("ControlPlane", 3, 10, 0, 0, "2", "1"))
	r.runFor(time.Minute)
	r.requestRoll("pool", noderoll.Options{})
	r.finish()
	if len(r.everDetached) != 0 {
		t.Errorf("control-plane nodes detached: %v; maxSurge is ignored for masters", r.everDetached)
	}
	if r.maxDraining != 1 {
		t.Errorf("%d control-plane nodes drained at once, want maxUnavailable 1", r.maxDraining)
	}
	if len(r.outdated()) != 0 {
		t.Errorf("outdated left: %v", r.outdated())
	}
}

func TestRollResumesAfterAKillMidNode(t *testing.T) {
	r := startRollRun(t, groupScenario("Node", 3, 4, 4, 3, "", "1"))
	r.runFor(time.Minute)
	r.requestRoll("pool", noderoll.Options{})
	r.runUntil(5*time.Minute, "a node mid-drain", func() bool {
		for _, n := range r.nodes() {
			if isDraining(n) {
				return true
			}
		}
		return false
	})
	var mid string
	for _, n := range r.nodes() {
		if isDraining(n) {
			mid = n.Name
		}
	}
	r.restart()
	r.finish()
	if len(r.outdated()) != 0 {
		t.Fatalf("after the restart the roll did not finish: outdated %v", r.outdated())
	}
	found := false
	for _, n := range r.terminated {
		found = found || n == mid
	}
	if !found {
		t.Errorf("node %s, draining at the kill, was never terminated: %v", mid, r.terminated)
	}
	r.requireNoBudgetViolations()
}

func TestSteppedRollWaitsForContinueAndStopLeavesTheRest(t *testing.T) {
	r := startRollRun(t, groupScenario("Node", 4, 10, 4, 3, "", "1"))
	r.runFor(time.Minute)
	r.requestRoll("pool", noderoll.Options{Step: true})
	state := func() string {
		for _, n := range r.nodes() {
			if s, ok := n.Annotations[model.RollStateAnnotation]; ok {
				return s
			}
		}
		return ""
	}
	r.runUntil(10*time.Minute, "waiting after the first node", func() bool { return state() == model.RollWaiting })
	if len(r.terminated) != 1 {
		t.Fatalf("terminated %v before the first continue, want one node", r.terminated)
	}
	r.runFor(5 * time.Minute)
	if len(r.terminated) != 1 {
		t.Fatalf("a waiting roll went on: terminated %v", r.terminated)
	}
	// The waiting state survives a restart.
	r.restart()
	r.runFor(time.Minute)
	if len(r.terminated) != 1 || state() != model.RollWaiting {
		t.Fatalf("after a restart: terminated %v, state %q; want still waiting", r.terminated, state())
	}
	ctx := context.Background()
	if err := noderoll.Continue(ctx, r.api.Client(), "pool"); err != nil {
		t.Fatal(err)
	}
	r.runUntil(10*time.Minute, "waiting after the second node", func() bool { return state() == model.RollWaiting && len(r.terminated) == 2 })
	if err := noderoll.Stop(ctx, r.api.Client(), "pool"); err != nil {
		t.Fatal(err)
	}
	r.finish()
	if len(r.terminated) != 2 || len(r.outdated()) != 2 {
		t.Errorf("after stop: terminated %v, outdated %v; want two replaced and two untouched", r.terminated, r.outdated())
	}
	for _, n := range r.nodes() {
		if _, in := n.Annotations[model.RollAnnotation]; in && (n.Spec.Unschedulable || n.Annotations[model.DrainRequestAnnotation] != "") {
			t.Errorf("stop touched node %s: unschedulable %v, drain %q", n.Name, n.Spec.Unschedulable, n.Annotations[model.DrainRequestAnnotation])
		}
	}
	if s := state(); s != model.RollStopped {
		t.Errorf("state %q, want stopped", s)
	}
	if err := noderoll.Continue(ctx, r.api.Client(), "pool"); err == nil || !strings.Contains(err.Error(), "it is stopped") {
		t.Errorf("continuing a stopped roll: %v", err)
	}
}

func TestBadInputSaysWhatIsWrong(t *testing.T) {
	r := startRollRun(t, groupScenario("Node", 3, 4, 4, 4, "", "1"))
	r.runFor(time.Minute)
	ctx, c := context.Background(), r.api.Client()

	t.Run("drain an unknown node", func(t *testing.T) {
		err := drain.Request(ctx, c, "pool-9", drain.Options{})
		if err == nil || !strings.Contains(err.Error(), `cannot drain node "pool-9": no such node`) {
			t.Errorf("error %v", err)
		}
	})
	t.Run("drain a deleted node", func(t *testing.T) {
		n := r.node("pool-2")
		if err := c.CoreV1().Nodes().Delete(ctx, n.Name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		err := drain.Request(ctx, c, "pool-2", drain.Options{})
		if err == nil || !strings.Contains(err.Error(), "no such node (it may have been deleted") {
			t.Errorf("error %v", err)
		}
		r.runFor(time.Minute) // the group replaces it
	})
	t.Run("roll an unknown group", func(t *testing.T) {
		err := noderoll.Request(ctx, c, "gpu", noderoll.Options{}, r.clock.Now())
		if !errors.Is(err, noderoll.ErrNoGroup) || !strings.Contains(err.Error(), `node group "gpu" has no nodes (groups: pool)`) {
			t.Errorf("error %v", err)
		}
	})
	t.Run("maxUnavailable 150%", func(t *testing.T) {
		v := intstr.FromString("150%")
		err := noderoll.Request(ctx, c, "pool", noderoll.Options{MaxUnavailable: &v}, r.clock.Now())
		if err == nil || !strings.Contains(err.Error(), "maxUnavailable 150% is outside 0%–100%") {
			t.Errorf("error %v", err)
		}
		for _, n := range r.nodes() {
			if _, ok := n.Annotations[model.RollAnnotation]; ok {
				t.Errorf("a refused roll left its annotation on %s", n.Name)
			}
		}
	})
	t.Run("a drain that times out", func(t *testing.T) {
		// minAvailable 4 of 4: the budget never allows a disruption.
		var busy string
		for _, n := range r.nodes() {
			if pods, _ := r.cluster.Runner.Listers().PodIndex.ByIndex("spec.nodeName", n.Name); len(pods) > 0 {
				busy = n.Name
				break
			}
		}
		if err := drain.Request(ctx, c, busy, drain.Options{Timeout: drain.Duration(30 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		r.runFor(29 * time.Second)
		if s := r.node(busy).Annotations[model.DrainStateAnnotation]; s != model.DrainBlocked {
			t.Fatalf("state %q before the timeout, want blocked", s)
		}
		r.runFor(2 * time.Second)
		n := r.node(busy)
		msg := n.Annotations[model.DrainMessageAnnotation]
		if n.Annotations[model.DrainStateAnnotation] != model.DrainFailed || !strings.Contains(msg, "drain did not finish within 30s") ||
			!strings.Contains(msg, "the node stays cordoned") {
			t.Errorf("state %q message %q, want failed and a message naming the timeout", n.Annotations[model.DrainStateAnnotation], msg)
		}
		if !n.Spec.Unschedulable {
			t.Error("a timed-out drain uncordoned the node; it must say it stays cordoned and keep it so")
		}
	})
}

func TestRollFailsOnATimedOutDrainAndSaysWhatItLeft(t *testing.T) {
	r := startRollRun(t, groupScenario("Node", 3, 4, 4, 4, "", "1"))
	r.runFor(time.Minute)
	r.requestRoll("pool", noderoll.Options{DrainTimeout: drain.Duration(time.Minute)})
	r.finish()
	var msg string
	for _, n := range r.nodes() {
		if n.Annotations[model.RollStateAnnotation] == model.RollFailed {
			msg = n.Annotations[model.RollMessageAnnotation]
		}
	}
	if !strings.Contains(msg, "drain did not finish within 1m0s") || !strings.Contains(msg, "stays cordoned, the nodes not yet rolled are untouched") {
		t.Fatalf("roll message %q, want the drain failure and what it left", msg)
	}
	if len(r.terminated) != 0 {
		t.Errorf("terminated %v after a failed drain", r.terminated)
	}
}

// kops_rolling_update cases that describe groups by count and need-update.
func TestUpstreamKopsRollingUpdateCases(t *testing.T) {
	type group struct {
		Name       string `json:"name"`
		Role       string `json:"role"`
		Count      int    `json:"count"`
		NeedUpdate int    `json:"needUpdate"`
	}
	cases := []struct {
		id                  string
		group               group
		surge, unavailable  string
		instancesLeft       int
		detachCount         int
		taintedBeforeDelete int
	}{
		{"kops_rolling_update-01", group{"node-1", "Node", 3, 2}, "10", "", 1, 2, -1},
		{"kops_rolling_update-02", group{"master-1", "ControlPlane", 3, 2}, "2", "", 1, 0, -1},
		{"kops_rolling_update-03", group{"node-1", "Node", 3, 2}, "", "", 1, 0, 2},
		{"kops_rolling_update-09", group{"node-1", "Node", 7, 7}, "", "2", 0, 0, -1},
		{"kops_rolling_update-10", group{"node-1", "Node", 7, 6}, "", "2", 1, 0, -1},
		{"kops_rolling_update-11", group{"master-1", "ControlPlane", 7, 7}, "", "2", 0, 0, -1},
		{"kops_rolling_update-12", group{"node-1", "Node", 6, 6}, "2", "", 0, 2, -1},
		{"kops_rolling_update-13", group{"node-1", "Node", 7, 6}, "2", "", 1, 2, -1},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			src := strings.ReplaceAll(groupScenario(c.group.Role, c.group.Count, 10, 0, 0, c.surge, c.unavailable), "name: pool", "name: "+c.group.Name)
			r := startRollRun(t, src)
			r.runFor(time.Minute)
			// The first count-needUpdate nodes are up to date already.
			for i := range c.group.Count - c.group.NeedUpdate {
				n := r.node(fmt.Sprintf("%s-%d", c.group.Name, i))
				delete(n.Annotations, model.NeedsUpdateAnnotation)
				n.Annotations[model.NodeSpecAnnotation] = "v2"
				if _, err := r.api.Client().CoreV1().Nodes().Update(context.Background(), n, metav1.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			r.requestRoll(c.group.Name, noderoll.Options{})
			r.finish()
			left := 0
			for _, n := range r.nodes() {
				var idx int
				if _, err := fmt.Sscanf(strings.TrimPrefix(n.Name, c.group.Name+"-"), "%d", &idx); err == nil && idx < c.group.Count {
					left++
				}
			}
			if left != c.instancesLeft {
				t.Errorf("instances left %d, want %d", left, c.instancesLeft)
			}
			if len(r.everDetached) != c.detachCount {
				t.Errorf("detached %d, want %d", len(r.everDetached), c.detachCount)
			}
			if c.taintedBeforeDelete >= 0 && r.taintedBeforeFirstTermination != c.taintedBeforeDelete {
				t.Errorf("tainted before the first delete %d, want %d", r.taintedBeforeFirstTermination, c.taintedBeforeDelete)
			}
		})
	}
	t.Run("kops_rolling_update-04 none need update", func(t *testing.T) {
		r := startRollRun(t, groupScenario("Node", 3, 10, 0, 0, "", ""))
		r.runFor(time.Minute)
		for _, n := range r.nodes() {
			delete(n.Annotations, model.NeedsUpdateAnnotation)
			u := n.DeepCopy()
			if _, err := r.api.Client().CoreV1().Nodes().Update(context.Background(), u, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		r.runFor(time.Second)
		err := noderoll.Request(context.Background(), r.api.Client(), "pool", noderoll.Options{}, r.clock.Now())
		if err == nil || !strings.Contains(err.Error(), "no node needs an update") {
			t.Errorf("error %v, want nothing to do", err)
		}
		r.finish()
		if len(r.terminated) != 0 {
			t.Errorf("terminated %v with nothing to update", r.terminated)
		}
	})
}

// BenchmarkNodeRoll500 rolls a 500-node group (maxUnavailable 10%: 50 at a
// time) carrying 5,000 pods at full speed, from the request to the last
// replacement, and reports evictions per wall-clock second.
func BenchmarkNodeRoll500(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(embedded.SimulationGCPercent))
	src := groupScenario("Node", 500, 30, 5000, 4500, "", "10%")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		r := startRollRun(b, src)
		r.skipBudgetCheck = true
		r.runFor(2 * time.Minute)
		deletedBefore := r.podsDeleted
		start := time.Now()
		virtualStart := r.clock.Now()
		b.StartTimer()
		r.requestRoll("pool", noderoll.Options{})
		r.finish()
		b.StopTimer()
		wall := time.Since(start)
		evicted := r.podsDeleted - deletedBefore
		b.ReportMetric(wall.Seconds(), "wall-s/roll")
		b.ReportMetric(float64(evicted)/wall.Seconds(), "evictions/s")
		b.ReportMetric(r.clock.Now().Sub(virtualStart).Seconds(), "virtual-s/roll")
		if len(r.outdated()) != 0 {
			b.Fatalf("roll incomplete: %d nodes outdated", len(r.outdated()))
		}
		if i == 0 {
			fmt.Fprintf(os.Stderr, "500-node roll: %d pods evicted, %d nodes terminated, wall %v, virtual %v\n",
				evicted, len(r.terminated), wall.Round(time.Millisecond), r.clock.Now().Sub(virtualStart))
		}
		r.cluster.Runner.Close()
	}
}

func TestDrainPreviewListsPodsBudgetsAndBlockers(t *testing.T) {
	// Four pods on two nodes with two slots each: two per node. minAvailable
	// 3 of 4 allows one disruption, so a node's second pod will wait.
	r := startRollRun(t, groupScenario("Node", 2, 2, 4, 3, "", "1"))
	r.runFor(time.Minute)
	p, err := drain.PreviewDrain(r.cluster.Runner.Listers(), "pool-0", drain.Options{}, r.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Plan.Evict) != 2 || p.Plan.Err() != nil {
		t.Fatalf("preview evicts %d pods (refusal %v), want the node's 2 pods", len(p.Plan.Evict), p.Plan.Err())
	}
	if len(p.Budgets) != 1 || p.Budgets[0].Name != "web" || p.Budgets[0].DisruptionsAllowed != 1 {
		t.Fatalf("budgets %+v, want web allowing 1 disruption", p.Budgets)
	}
	if len(p.Blocked) != 1 || p.Blocked[0].Pod != "default/"+p.Plan.Evict[1].Name {
		t.Fatalf("blocked %+v, want the node's second pod", p.Blocked)
	}
	if _, err := drain.PreviewDrain(r.cluster.Runner.Listers(), "pool-7", drain.Options{}, r.clock.Now()); err == nil || !strings.Contains(err.Error(), "no such node") {
		t.Errorf("preview of an unknown node: %v", err)
	}
}

func TestScenarioDrainActionDrainsTheNodeAndTracesIt(t *testing.T) {
	src := groupScenario("Node", 3, 10, 4, 3, "", "1") + `
actions:
  - {at: 30s, drain: {node: pool-1}}
`
	var results []string
	sc, err := scenario.Parse("drain.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	var out bytes.Buffer
	tw := trace.New(&out, trace.JSONL, epoch, sc.NodeGroups)
	c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{
		Observers: []sim.Observer{tw.Observe},
		OnAction:  func(_ time.Time, kind, target, result string) { results = append(results, kind+" "+target+": "+result) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if end, err := c.Run(context.Background(), 0); err != nil || end != sim.EndQuiescent {
		t.Fatalf("run ended %q: %v", end, err)
	}
	if len(results) != 1 || results[0] != "drain node/pool-1: ok" {
		t.Fatalf("action results %v", results)
	}
	n, err := api.Client().CoreV1().Nodes().Get(context.Background(), "pool-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n.Annotations[model.DrainStateAnnotation] != model.DrainDrained || !n.Spec.Unschedulable || n.Annotations[model.DrainPodsLeftAnnotation] != "0" {
		t.Errorf("pool-1 state %q unschedulable %v pods left %q, want drained, cordoned, 0",
			n.Annotations[model.DrainStateAnnotation], n.Spec.Unschedulable, n.Annotations[model.DrainPodsLeftAnnotation])
	}
	if pods, _ := c.Runner.Listers().PodIndex.ByIndex("spec.nodeName", "pool-1"); len(pods) != 0 {
		t.Errorf("%d pods still on pool-1", len(pods))
	}
	d, _ := c.Runner.Listers().Deployments.Deployments("default").Get("web")
	if d.Status.AvailableReplicas != 4 {
		t.Errorf("web has %d available, want 4 (rescheduled elsewhere)", d.Status.AvailableReplicas)
	}
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := `"type":"node","name":"pool-1","group":"pool","ready":true,"unschedulable":true,"pods":0`; !strings.Contains(out.String(), want) {
		t.Errorf("the trace has no node line for the drained node (%s)", want)
	}
}

func TestPauseFinishesTheNodeInFlightAndStartsNoMore(t *testing.T) {
	r := startRollRun(t, groupScenario("Node", 3, 10, 4, 3, "", "1"))
	r.runFor(time.Minute)
	r.requestRoll("pool", noderoll.Options{})
	r.runUntil(5*time.Minute, "the first node draining", func() bool { return r.maxDraining > 0 })
	ctx := context.Background()
	if err := noderoll.Pause(ctx, r.api.Client(), "pool"); err != nil {
		t.Fatal(err)
	}
	r.runFor(10 * time.Minute)
	if len(r.terminated) != 1 || len(r.outdated()) != 2 {
		t.Fatalf("paused roll: terminated %v, outdated %v; want the node in flight finished and no other started", r.terminated, r.outdated())
	}
	if err := noderoll.Pause(ctx, r.api.Client(), "pool"); err == nil || !strings.Contains(err.Error(), "it is paused") {
		t.Errorf("pausing twice: %v", err)
	}
	if err := noderoll.Resume(ctx, r.api.Client(), "pool"); err != nil {
		t.Fatal(err)
	}
	r.finish()
	if len(r.outdated()) != 0 {
		t.Errorf("resumed roll left %v outdated", r.outdated())
	}
	r.requireNoBudgetViolations()
}

func TestDisableEvictionDeletesDespiteTheBudget(t *testing.T) {
	// minAvailable 4 of 4: eviction would never be allowed.
	r := startRollRun(t, groupScenario("Node", 3, 10, 4, 4, "", "1"))
	r.runFor(time.Minute)
	var busy string
	for _, n := range r.nodes() {
		if pods, _ := r.cluster.Runner.Listers().PodIndex.ByIndex("spec.nodeName", n.Name); len(pods) > 0 {
			busy = n.Name
			break
		}
	}
	if err := drain.Request(context.Background(), r.api.Client(), busy, drain.Options{DisableEviction: true}); err != nil {
		t.Fatal(err)
	}
	r.runUntil(time.Minute, "drained", func() bool { return r.node(busy).Annotations[model.DrainStateAnnotation] == model.DrainDrained })
	if len(r.blocked) != 0 {
		t.Errorf("a drain with eviction disabled was blocked: %v", r.blocked)
	}
}

// A scripted stepped roll takes one node, waits, and takes the next on
// nextNode, as the console's n does; its options come from the scenario.
func TestScenarioSteppedRollTakesTheNextNodeOnNextNode(t *testing.T) {
	src := groupScenario("Node", 3, 10, 4, 3, "", "") + `
actions:
  - {at: 1m, rollNodes: {group: pool, step: true, maxUnavailable: 2, interval: 5s}}
  - {at: 5m, nextNode: pool}
`
	r := startRollRun(t, src)
	r.runFor(4 * time.Minute)
	state := func() string { return r.node(r.outdated()[0]).Annotations[model.RollStateAnnotation] }
	if len(r.terminated) != 1 || state() != model.RollWaiting {
		t.Fatalf("before nextNode: terminated %v, roll %q; want one node replaced and the roll waiting", r.terminated, state())
	}
	if r.maxDraining != 1 {
		t.Errorf("%d nodes drained at once in step mode (maxUnavailable 2), want 1", r.maxDraining)
	}
	r.runFor(5 * time.Minute)
	if len(r.terminated) != 2 || len(r.outdated()) != 1 || state() != model.RollWaiting {
		t.Fatalf("after one nextNode: terminated %v, outdated %v, roll %q; want a second node replaced and the roll waiting again", r.terminated, r.outdated(), state())
	}
	r.requireNoBudgetViolations()
}
