package embedded_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	appslisters "k8s.io/client-go/listers/apps/v1"

	"rollscope/engine/embedded"
	"rollscope/engine/noderoll"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model"
	"rollscope/model/kind"
)

// workloadRun runs a scenario with StatefulSets or DaemonSets and checks
// their rolling-update invariants at every committed change.
type workloadRun struct {
	t       *testing.T
	clock   *sim.Clock
	api     *memapi.Cluster
	cluster *embedded.Cluster
	// deleted lists, per StatefulSet, the ordinals whose pods the
	// controller began deleting, in order.
	deleted     map[string][]int
	terminating map[types.UID]bool
	violations  []string
	// maxDaemonSurge is the most nodes seen running two daemon pods of one
	// DaemonSet at once.
	maxDaemonSurge int
}

func startWorkloads(t *testing.T, src string) *workloadRun {
	t.Helper()
	sc, err := scenario.Parse("workloads.yaml", []byte(src))
	if err != nil {
		t.Fatalf("scenario: %v", err)
	}
	r := &workloadRun{t: t, clock: sim.NewClock(epoch), deleted: map[string][]int{}, terminating: map[types.UID]bool{}}
	r.api = memapi.New(memapi.Options{Clock: r.clock, Seed: sc.Seed})
	r.cluster, err = embedded.Start(context.Background(), r.api, r.clock, sc, embedded.Options{Observers: []sim.Observer{r.observe}})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return r
}

func (r *workloadRun) observe(now time.Time, ev watch.Event) {
	l := r.cluster.Runner.Listers()
	at := now.Sub(epoch).Seconds()
	if p, ok := ev.Object.(*corev1.Pod); ok && ev.Type == watch.Modified && p.DeletionTimestamp != nil && !r.terminating[p.UID] {
		r.terminating[p.UID] = true
		if ref := metav1.GetControllerOf(p); ref != nil && ref.Kind == "StatefulSet" {
			_, ord := model.StatefulPodOrdinal(p.Name)
			r.deleted[ref.Name] = append(r.deleted[ref.Name], ord)
		}
	}
	sets, _ := appslisters.NewStatefulSetLister(l.Workloads[kind.StatefulSet]).List(labels.Everything())
	for _, set := range sets {
		r.checkStatefulSet(at, set)
	}
	dss, _ := appslisters.NewDaemonSetLister(l.Workloads[kind.DaemonSet]).List(labels.Everything())
	for _, ds := range dss {
		r.checkDaemonSet(at, ds)
	}
}

// checkStatefulSet: never more than maxUnavailable of a rolling set's pods
// unavailable while it updates, and nothing below the partition off the
// current revision.
func (r *workloadRun) checkStatefulSet(at float64, set *appsv1.StatefulSet) {
	s := set.Status
	if s.UpdateRevision == "" || s.UpdateRevision == s.CurrentRevision {
		return
	}
	pods, _ := r.cluster.Runner.Listers().Pods.Pods(set.Namespace).List(labels.Everything())
	partition := int(model.StatefulSetPartition(set))
	replicas := int(model.StatefulSetReplicas(set))
	maxUnavailable, _ := model.StatefulSetMaxUnavailable(set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable, replicas)
	present, unavailable := 0, 0
	for _, p := range pods {
		parent, ord := model.StatefulPodOrdinal(p.Name)
		if parent != set.Name {
			continue
		}
		present++
		if p.DeletionTimestamp != nil || !model.IsPodAvailable(p, set.Spec.MinReadySeconds, r.clock.Now()) {
			unavailable++
		}
		if ord < partition && p.Labels[model.RevisionHashLabel] != s.CurrentRevision {
			r.violations = append(r.violations, fmt.Sprintf("t=%.3f %s: pod %s below partition %d is at %s", at, set.Name, p.Name, partition, p.Labels[model.RevisionHashLabel]))
		}
	}
	if missing := replicas - present; unavailable+missing > maxUnavailable {
		r.violations = append(r.violations, fmt.Sprintf("t=%.3f %s: %d pods unavailable, maxUnavailable %d", at, set.Name, unavailable+missing, maxUnavailable))
	}
}

// checkDaemonSet: never more than maxUnavailable eligible nodes without an
// available daemon pod, never more than maxSurge extra pods, while rolling.
func (r *workloadRun) checkDaemonSet(at float64, ds *appsv1.DaemonSet) {
	if ds.Status.UpdatedNumberScheduled >= ds.Status.DesiredNumberScheduled && ds.Generation == ds.Status.ObservedGeneration {
		return
	}
	l := r.cluster.Runner.Listers()
	nodes, _ := l.Nodes.List(labels.Everything())
	pods, _ := l.Pods.Pods(ds.Namespace).List(labels.Everything())
	byNode := map[string][]*corev1.Pod{}
	total := 0
	for _, p := range pods {
		if ref := metav1.GetControllerOf(p); ref == nil || ref.UID != ds.UID || p.DeletionTimestamp != nil {
			continue
		}
		byNode[model.DaemonPodNode(p)] = append(byNode[model.DaemonPodNode(p)], p)
		total++
	}
	eligible, without := 0, 0
	for _, n := range nodes {
		if !model.NodeReady(n) || n.Spec.Unschedulable || model.NodeDetached(n) {
			continue
		}
		eligible++
		ok := false
		for _, p := range byNode[n.Name] {
			ok = ok || model.IsPodAvailable(p, ds.Spec.MinReadySeconds, r.clock.Now())
		}
		if !ok {
			without++
		}
	}
	surge, unavailable, _ := model.DaemonSetBudget(ds, int(ds.Status.DesiredNumberScheduled))
	doubled := 0
	for _, n := range nodes {
		if len(byNode[n.Name]) > 1 {
			doubled++
		}
	}
	r.maxDaemonSurge = max(r.maxDaemonSurge, doubled)
	if doubled > surge {
		r.violations = append(r.violations, fmt.Sprintf("t=%.3f %s: %d nodes run two daemon pods (of %d pods), maxSurge %d", at, ds.Name, doubled, total, surge))
	}
	if surge == 0 && without > unavailable && ds.Status.ObservedGeneration > 1 {
		r.violations = append(r.violations, fmt.Sprintf("t=%.3f %s: %d nodes without an available pod, maxUnavailable %d", at, ds.Name, without, unavailable))
	}
}

func (r *workloadRun) finish() {
	r.t.Helper()
	end, err := r.cluster.Run(context.Background(), 0)
	if err != nil || end != sim.EndQuiescent {
		r.t.Fatalf("run ended %q: %v", end, err)
	}
	if len(r.violations) > 0 {
		r.t.Fatalf("%d invariant violations, first: %v", len(r.violations), r.violations[:min(5, len(r.violations))])
	}
}

func (r *workloadRun) statefulSet(name string) *appsv1.StatefulSet {
	r.t.Helper()
	s, err := r.api.Client().AppsV1().StatefulSets("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		r.t.Fatal(err)
	}
	return s
}

func (r *workloadRun) daemonSet(name string) *appsv1.DaemonSet {
	r.t.Helper()
	s, err := r.api.Client().AppsV1().DaemonSets("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		r.t.Fatal(err)
	}
	return s
}

func (r *workloadRun) podsOf(uid string) []*corev1.Pod {
	pods, _ := r.cluster.Runner.Listers().Pods.List(labels.Everything())
	var out []*corev1.Pod
	for _, p := range pods {
		if ref := metav1.GetControllerOf(p); ref != nil && string(ref.UID) == uid {
			out = append(out, p)
		}
	}
	return out
}

const statefulScenario = `
name: sts
seed: 3
namespace: default
nodeGroups:
  - {name: nodes, role: Node, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
  apiVersion: apps/v1
  kind: StatefulSet
  metadata:
    name: db
  spec:
    replicas: 5
    serviceName: db
    selector:
      matchLabels: {app: db}
    updateStrategy:
      type: RollingUpdate
      rollingUpdate: {partition: 2}
    template:
      metadata:
        labels: {app: db}
      spec:
        containers:
          - {name: db, image: "registry.example.com/db:1"}
`

func TestStatefulSetCreatesInOrderAndRollsDownToThePartition(t *testing.T) {
	r := startWorkloads(t, statefulScenario)
	r.finish()
	set := r.statefulSet("db")
	if s := set.Status; s.Replicas != 5 || s.ReadyReplicas != 5 || s.AvailableReplicas != 5 || s.CurrentRevision != s.UpdateRevision || s.CurrentReplicas != 5 {
		t.Fatalf("after creation: status %+v", s)
	}
	first := set.Status.CurrentRevision

	set.Spec.Template.Spec.Containers[0].Image = "registry.example.com/db:2"
	if _, err := r.api.Client().AppsV1().StatefulSets("default").Update(context.Background(), set, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	r.finish()
	set = r.statefulSet("db")
	s := set.Status
	if s.CurrentRevision != first || s.UpdateRevision == first || s.UpdatedReplicas != 3 || s.CurrentReplicas != 2 {
		t.Fatalf("partition 2: status %+v, first revision %s", s, first)
	}
	if got := r.deleted["db"]; !slices.Equal(got, []int{4, 3, 2}) {
		t.Errorf("partition 2: replaced ordinals %v, want [4 3 2]", got)
	}
	msg, done, _ := model.StatefulSetRolloutStatus(set)
	if !done || msg != "partitioned roll out complete: 3 new pods have been updated...\n" {
		t.Errorf("rollout status %q, %v", msg, done)
	}

	set.Spec.UpdateStrategy.RollingUpdate.Partition = new(int32)
	if _, err := r.api.Client().AppsV1().StatefulSets("default").Update(context.Background(), set, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	r.finish()
	s = r.statefulSet("db").Status
	if s.CurrentRevision != s.UpdateRevision || s.UpdatedReplicas != 5 || s.CurrentReplicas != 5 {
		t.Fatalf("partition 0: status %+v", s)
	}
	if got := r.deleted["db"]; !slices.Equal(got, []int{4, 3, 2, 1, 0}) {
		t.Errorf("replaced ordinals %v, want [4 3 2 1 0]", got)
	}
	revs, _ := r.api.Client().AppsV1().ControllerRevisions("default").List(context.Background(), metav1.ListOptions{})
	if len(revs.Items) != 2 {
		t.Errorf("%d controller revisions, want 2", len(revs.Items))
	}
	for _, p := range r.podsOf(string(set.UID)) {
		if p.Labels[model.RevisionHashLabel] != s.UpdateRevision || p.Spec.Containers[0].Image != "registry.example.com/db:2" {
			t.Errorf("pod %s at %s with %s", p.Name, p.Labels[model.RevisionHashLabel], p.Spec.Containers[0].Image)
		}
	}
}

const daemonScenario = `
name: ds
seed: 5
namespace: default
nodeGroups:
  - {name: nodes, role: Node, size: 6, capacity: {pods: 30, cpu: "8", memory: 32Gi}, initialSpec: v1, spec: v2, bootTime: 20s, maxSurge: 1, maxUnavailable: 0}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
  apiVersion: apps/v1
  kind: DaemonSet
  metadata:
    name: agent
  spec:
    selector:
      matchLabels: {app: agent}
    updateStrategy:
      type: RollingUpdate
      rollingUpdate: {maxUnavailable: 0, maxSurge: 2}
    template:
      metadata:
        labels: {app: agent}
      spec:
        containers:
          - {name: agent, image: "registry.example.com/agent:1"}
`

func TestDaemonSetRunsOnePodPerNodeAndSurgesWithinItsBudget(t *testing.T) {
	r := startWorkloads(t, daemonScenario)
	r.finish()
	ds := r.daemonSet("agent")
	if s := ds.Status; s.DesiredNumberScheduled != 6 || s.NumberAvailable != 6 || s.UpdatedNumberScheduled != 6 {
		t.Fatalf("after creation: status %+v", s)
	}
	ds.Spec.Template.Spec.Containers[0].Image = "registry.example.com/agent:2"
	if _, err := r.api.Client().AppsV1().DaemonSets("default").Update(context.Background(), ds, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	r.finish()
	ds = r.daemonSet("agent")
	if msg, done, _ := model.DaemonSetRolloutStatus(ds); !done {
		t.Fatalf("not rolled out: %q (status %+v)", msg, ds.Status)
	}
	if r.maxDaemonSurge == 0 || r.maxDaemonSurge > 2 {
		t.Errorf("surged by at most %d pods, want 1 or 2", r.maxDaemonSurge)
	}
	perNode := map[string]int{}
	for _, p := range r.podsOf(string(ds.UID)) {
		perNode[p.Spec.NodeName]++
		if p.Spec.Containers[0].Image != "registry.example.com/agent:2" {
			t.Errorf("pod %s runs %s", p.Name, p.Spec.Containers[0].Image)
		}
	}
	if len(perNode) != 6 {
		t.Errorf("daemon pods on %d nodes, want 6: %v", len(perNode), perNode)
	}
	for n, c := range perNode {
		if c != 1 {
			t.Errorf("node %s has %d daemon pods", n, c)
		}
	}
}

func TestDaemonSetRollDuringANodeRollEndsWithOnePodOnEveryNewNode(t *testing.T) {
	r := startWorkloads(t, daemonScenario)
	r.finish()
	ds := r.daemonSet("agent")
	ds.Spec.Template.Spec.Containers[0].Image = "registry.example.com/agent:2"
	if _, err := r.api.Client().AppsV1().DaemonSets("default").Update(context.Background(), ds, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := noderoll.Request(context.Background(), r.api.Client(), "nodes", noderoll.Options{}, r.clock.Now()); err != nil {
		t.Fatal(err)
	}
	r.finish()
	ds = r.daemonSet("agent")
	if msg, done, _ := model.DaemonSetRolloutStatus(ds); !done || ds.Status.DesiredNumberScheduled != 6 {
		t.Fatalf("not rolled out: %q (status %+v)", msg, ds.Status)
	}
	nodes, _ := r.cluster.Runner.Listers().Nodes.List(labels.Everything())
	perNode := map[string]int{}
	for _, p := range r.podsOf(string(ds.UID)) {
		perNode[p.Spec.NodeName]++
	}
	for _, n := range nodes {
		if _, outdated := n.Annotations[model.NeedsUpdateAnnotation]; outdated {
			t.Errorf("node %s still outdated", n.Name)
		}
		if perNode[n.Name] != 1 {
			t.Errorf("node %s has %d daemon pods", n.Name, perNode[n.Name])
		}
	}
	if len(perNode) != len(nodes) {
		t.Errorf("daemon pods on %v, nodes %d", perNode, len(nodes))
	}
}

func startBuiltinWorkloads(t *testing.T, name string, seed int64) *workloadRun {
	t.Helper()
	sc := load(t, name)
	r := &workloadRun{t: t, clock: sim.NewClock(epoch), deleted: map[string][]int{}, terminating: map[types.UID]bool{}}
	r.api = memapi.New(memapi.Options{Clock: r.clock, Seed: seed})
	var err error
	r.cluster, err = embedded.Start(context.Background(), r.api, r.clock, sc, embedded.Options{Seed: seed, Observers: []sim.Observer{r.observe}})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return r
}

func TestBuiltinStatefulKeepsItsInvariantsAndEndsUpdated(t *testing.T) {
	for _, seed := range []int64{13, 1, 2} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := startBuiltinWorkloads(t, "stateful", seed)
			r.finish()
			s := r.statefulSet("db").Status
			if s.CurrentRevision != s.UpdateRevision || s.UpdatedReplicas != 5 || s.AvailableReplicas != 5 {
				t.Fatalf("status %+v", s)
			}
			if got := r.deleted["db"]; !slices.Equal(got, []int{4, 3, 2, 1, 0}) {
				t.Errorf("replaced ordinals %v, want [4 3 2 1 0]", got)
			}
		})
	}
}

func TestBuiltinDaemonsKeepsItsInvariantsAndEndsOnEveryNewNode(t *testing.T) {
	for _, seed := range []int64{17, 1, 2} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := startBuiltinWorkloads(t, "daemons", seed)
			r.finish()
			ds := r.daemonSet("node-agent")
			if _, done, _ := model.DaemonSetRolloutStatus(ds); !done || ds.Status.DesiredNumberScheduled != 5 {
				t.Fatalf("status %+v", ds.Status)
			}
			if r.maxDaemonSurge != 1 {
				t.Errorf("at most %d nodes ran two daemon pods at once, want maxSurge 1", r.maxDaemonSurge)
			}
			nodes, _ := r.cluster.Runner.Listers().Nodes.List(labels.Everything())
			perNode := map[string]int{}
			for _, p := range r.podsOf(string(ds.UID)) {
				perNode[p.Spec.NodeName]++
			}
			for _, n := range nodes {
				if perNode[n.Name] != 1 || n.Annotations[model.NodeSpecAnnotation] != "v2" {
					t.Errorf("node %s (spec %s) has %d daemon pods", n.Name, n.Annotations[model.NodeSpecAnnotation], perNode[n.Name])
				}
			}
		})
	}
}

// TestRandomWorkloadsKeepTheirInvariants rolls StatefulSets and DaemonSets
// of random shapes and checks the invariants at every change and the end
// state of each.
func TestRandomWorkloadsKeepTheirInvariants(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	for i := range 12 {
		replicas := 1 + rng.Intn(7)
		partition := rng.Intn(replicas + 1)
		maxUnavailable := 1 + rng.Intn(3)
		policy := []string{"OrderedReady", "Parallel"}[rng.Intn(2)]
		nodes := 2 + rng.Intn(6)
		surge, unavailable := rng.Intn(3), rng.Intn(3)
		if surge == 0 && unavailable == 0 {
			unavailable = 1
		}
		src := fmt.Sprintf(`
name: random
seed: %d
namespace: default
nodeGroups:
  - {name: nodes, role: Node, size: %d, capacity: {pods: 40, cpu: "16", memory: 64Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
  apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: db}
  spec:
    replicas: %d
    podManagementPolicy: %s
    selector: {matchLabels: {app: db}}
    updateStrategy: {rollingUpdate: {partition: %d, maxUnavailable: %d}}
    template:
      metadata: {labels: {app: db}}
      spec: {containers: [{name: db, image: "db:1"}]}
  ---
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: agent}
  spec:
    selector: {matchLabels: {app: agent}}
    updateStrategy: {rollingUpdate: {maxSurge: %d, maxUnavailable: %d}}
    template:
      metadata: {labels: {app: agent}}
      spec: {containers: [{name: agent, image: "agent:1"}]}
actions:
  - {at: 60s, setImage: {target: statefulset/db, image: "db:2"}}
  - {at: 60s, setImage: {target: daemonset/agent, image: "agent:2"}}
`, i+1, nodes, replicas, policy, partition, maxUnavailable, surge, unavailable)
		t.Run(fmt.Sprintf("%d replicas partition %d maxUnavailable %d %s, %d nodes surge %d unavailable %d", replicas, partition, maxUnavailable, policy, nodes, surge, unavailable), func(t *testing.T) {
			r := startWorkloads(t, src)
			r.finish()
			set := r.statefulSet("db")
			if s := set.Status; int(s.UpdatedReplicas) != replicas-partition || s.AvailableReplicas != int32(replicas) {
				t.Errorf("statefulset status %+v", s)
			}
			want := append([]int(nil), r.deleted["db"]...)
			slices.Sort(want)
			slices.Reverse(want)
			if policy == "OrderedReady" && !slices.Equal(r.deleted["db"], want) {
				t.Errorf("replaced ordinals %v, not highest first", r.deleted["db"])
			}
			for _, ord := range r.deleted["db"] {
				if ord < partition {
					t.Errorf("ordinal %d below partition %d replaced", ord, partition)
				}
			}
			ds := r.daemonSet("agent")
			if s := ds.Status; s.DesiredNumberScheduled != int32(nodes) || s.UpdatedNumberScheduled != int32(nodes) || s.NumberAvailable != int32(nodes) {
				t.Errorf("daemonset status %+v", s)
			}
		})
	}
}

func TestScriptedUndoOfAStatefulSetAndRestartOfADaemonSet(t *testing.T) {
	src := statefulScenario + `
  ---
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: agent}
  spec:
    selector: {matchLabels: {app: agent}}
    template:
      metadata: {labels: {app: agent}}
      spec: {containers: [{name: agent, image: "agent:1"}]}
actions:
  - {at: 40s, partition: {target: sts/db, partition: 0}}
  - {at: 41s, setImage: {target: sts/db, image: "registry.example.com/db:2"}}
  - {at: 120s, undo: {target: statefulset/db, toRevision: 1}}
  - {at: 40s, restart: ds/agent}
`
	r := startWorkloads(t, src)
	r.finish()
	set := r.statefulSet("db")
	if img := set.Spec.Template.Spec.Containers[0].Image; img != "registry.example.com/db:1" {
		t.Errorf("after the undo the template runs %s", img)
	}
	revs, err := r.api.Client().AppsV1().ControllerRevisions("default").List(context.Background(), metav1.ListOptions{LabelSelector: "app=db"})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]int64{}
	for _, rev := range revs.Items {
		byName[rev.Name] = rev.Revision
	}
	// kubectl's rollback brings revision 1's template back: the controller
	// renumbers that revision 3 rather than making a new one.
	if len(byName) != 2 || byName[set.Status.UpdateRevision] != 3 || set.Status.CurrentRevision != set.Status.UpdateRevision {
		t.Errorf("revisions %v, status %+v", byName, set.Status)
	}
	ds := r.daemonSet("agent")
	if ds.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] == "" {
		t.Fatalf("no restartedAt on the template: %v", ds.Spec.Template.Annotations)
	}
	for _, p := range r.podsOf(string(ds.UID)) {
		if p.Annotations["kubectl.kubernetes.io/restartedAt"] == "" {
			t.Errorf("pod %s was not replaced by the restart", p.Name)
		}
	}
}
