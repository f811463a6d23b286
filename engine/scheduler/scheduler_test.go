package scheduler

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
	"rollscope/model"
)

func TestSpreadsPodsByLoad(t *testing.T) {
	h := newHarness(t,
		node("node-a", "4", "8Gi", 110), node("node-b", "4", "8Gi", 110), node("node-c", "4", "8Gi", 110),
		pod("busy", "3", "1Gi", onNode("node-a")),
	)
	for _, name := range []string{"p1", "p2", "p3", "p4"} {
		h.create(pod(name, "1", "1Gi"))
	}
	h.run()
	got := h.placements()
	want := map[string]int{"node-a": 1, "node-b": 2, "node-c": 2}
	if !maps.Equal(got, want) {
		t.Errorf("pods per node %v, want %v (node-a is already loaded)", got, want)
	}
	// Equal load: the tie goes to fewer pods, then to the node name.
	if n := h.pod("p1").Spec.NodeName; n != "node-b" {
		t.Errorf("p1 went to %s, want node-b (least loaded, first by name)", n)
	}
	if !slices.Contains(h.Events.Lines, "Normal Scheduled Successfully assigned default/p1 to node-b") {
		t.Errorf("events %q: want a Scheduled event for p1", h.Events.Lines)
	}
}

func TestSkipsNodesThatCannotTakeThePod(t *testing.T) {
	cases := []struct {
		name string
		pod  *corev1.Pod
		want string
	}{
		{"plain pod", pod("p", "100m", "64Mi"), "node-ok"},
		{"tolerates the dedicated taint", pod("p", "100m", "64Mi",
			tolerating(corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "db", Effect: corev1.TaintEffectNoSchedule})), "node-a-tainted"},
		{"empty key with Exists tolerates everything", pod("p", "100m", "64Mi",
			tolerating(corev1.Toleration{Operator: corev1.TolerationOpExists})), "node-a-cordoned"},
		{"wrong value does not tolerate", pod("p", "100m", "64Mi",
			tolerating(corev1.Toleration{Key: "dedicated", Value: "web", Effect: corev1.TaintEffectNoSchedule})), "node-ok"},
		{"tolerates not-ready like a DaemonSet pod", pod("p", "100m", "64Mi",
			tolerating(corev1.Toleration{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists})), "node-a-not-ready"},
		{"nodeSelector", pod("p", "100m", "64Mi", func(p *corev1.Pod) {
			p.Spec.NodeSelector = map[string]string{"zone": "b"}
		}), "node-z"},
		{"required affinity In", pod("p", "100m", "64Mi", requiring(corev1.NodeSelectorRequirement{
			Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"b", "c"}})), "node-z"},
		{"required affinity NotIn", pod("p", "100m", "64Mi", requiring(corev1.NodeSelectorRequirement{
			Key: "kubernetes.io/hostname", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"node-ok"}})), "node-z"},
		{"required affinity Exists", pod("p", "100m", "64Mi", requiring(corev1.NodeSelectorRequirement{
			Key: "zone", Operator: corev1.NodeSelectorOpExists})), "node-z"},
		{"required affinity DoesNotExist", pod("p", "100m", "64Mi", requiring(corev1.NodeSelectorRequirement{
			Key: "zone", Operator: corev1.NodeSelectorOpDoesNotExist})), "node-ok"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t,
				// The "a" nodes sort first and are emptier: only a filter keeps a pod off them.
				node("node-a-cordoned", "64", "256Gi", 110, cordoned),
				node("node-a-not-ready", "64", "256Gi", 110, notReady),
				node("node-a-tainted", "64", "256Gi", 110, tainted("dedicated", "db", corev1.TaintEffectNoSchedule)),
				node("node-ok", "4", "8Gi", 110),
				node("node-z", "4", "8Gi", 110, labelled("zone", "b")),
				pod("filler", "1", "1Gi", onNode("node-z")),
			)
			h.create(c.pod)
			h.run()
			if got := h.pod("p").Spec.NodeName; got != c.want {
				t.Errorf("bound to %q, want %q", got, c.want)
			}
		})
	}
}

func requiring(r corev1.NodeSelectorRequirement) podOpt {
	return func(p *corev1.Pod) {
		p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{r}}},
			},
		}}
	}
}

func TestPrefersNodesWithoutPreferNoScheduleTaints(t *testing.T) {
	h := newHarness(t,
		node("node-a", "8", "16Gi", 110, tainted("spot", "true", corev1.TaintEffectPreferNoSchedule)),
		node("node-b", "4", "8Gi", 110),
		pod("filler", "2", "4Gi", onNode("node-b")),
		pod("p", "100m", "64Mi"),
	)
	h.run()
	if got := h.pod("p").Spec.NodeName; got != "node-b" {
		t.Errorf("bound to %s, want node-b: the emptier node-a has an untolerated PreferNoSchedule taint", got)
	}
}

func TestToleration(t *testing.T) {
	taint := corev1.Taint{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}
	cases := []struct {
		name string
		tol  corev1.Toleration
		want bool
	}{
		{"Equal with the same value", corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "db", Effect: corev1.TaintEffectNoSchedule}, true},
		{"empty operator means Equal", corev1.Toleration{Key: "dedicated", Value: "db"}, true},
		{"Equal with another value", corev1.Toleration{Key: "dedicated", Value: "web"}, false},
		{"Exists ignores the value", corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpExists}, true},
		{"empty key with Exists matches every key", corev1.Toleration{Operator: corev1.TolerationOpExists}, true},
		{"another key", corev1.Toleration{Key: "gpu", Operator: corev1.TolerationOpExists}, false},
		{"another effect", corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}, false},
		{"numeric operators are gated off", corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpGt, Value: "1"}, false},
	}
	for _, c := range cases {
		if got := tolerates(&c.tol, &taint); got != c.want {
			t.Errorf("%s: tolerates = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestUnschedulablePodStaysPendingWithUpstreamMessage(t *testing.T) {
	h := newHarness(t,
		node("node-1", "8", "16Gi", 110, cordoned), node("node-2", "8", "16Gi", 110, cordoned), node("node-3", "8", "16Gi", 110, cordoned),
		node("node-4", "1", "16Gi", 110), node("node-5", "1", "16Gi", 110), node("node-6", "1", "16Gi", 110),
		pod("big", "2", "1Gi"),
	)
	h.run()
	p := h.pod("big")
	const msg = "0/6 nodes are available: 3 Insufficient cpu, 3 node(s) were unschedulable."
	c := model.PodCondition(&p.Status, corev1.PodScheduled)
	if p.Spec.NodeName != "" || c == nil || c.Status != corev1.ConditionFalse || c.Reason != "Unschedulable" || c.Message != msg {
		t.Fatalf("node %q, condition %+v; want Pending with PodScheduled=False Unschedulable %q", p.Spec.NodeName, c, msg)
	}
	if want := "Warning FailedScheduling " + msg; !slices.Equal(h.Events.Lines, []string{want}) {
		t.Errorf("events %q, want [%q]", h.Events.Lines, want)
	}
	if !slices.Equal(h.Queue.After, []controltest.Delayed{{Key: "default/big", Delay: 10 * time.Second}}) {
		t.Errorf("delayed %v, want one periodic retry after 10s", h.Queue.After)
	}

	// The periodic retry finds nothing changed: no work, no write, no new timer.
	h.Client.ClearActions()
	if err := h.sched.Sync(context.Background(), "default/big"); err != nil {
		t.Fatal(err)
	}
	if a := h.Client.Actions(); len(a) != 0 || len(h.Queue.After) != 1 {
		t.Errorf("retry with nothing changed made %d API calls and %d timers, want none", len(a), len(h.Queue.After)-1)
	}

	// Uncordoning a big node makes room at once.
	n, err := h.Client.CoreV1().Nodes().Get(context.Background(), "node-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n.Spec.Unschedulable = false
	if _, err := h.Client.CoreV1().Nodes().Update(context.Background(), n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.run()
	if got := h.pod("big").Spec.NodeName; got != "node-1" {
		t.Errorf("after uncordon bound to %q, want node-1", got)
	}
}

func TestRetriesWhenRoomIsFreed(t *testing.T) {
	h := newHarness(t,
		node("node-1", "2", "4Gi", 3),
		pod("a", "1", "1Gi", onNode("node-1")),
		pod("b", "1", "1Gi", onNode("node-1")),
		pod("late", "1", "1Gi"),
	)
	h.run()
	if msg := model.PodCondition(&h.pod("late").Status, corev1.PodScheduled).Message; msg != "0/1 nodes are available: 1 Insufficient cpu." {
		t.Fatalf("message %q", msg)
	}
	if err := h.Client.CoreV1().Pods("default").Delete(context.Background(), "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.run()
	if got := h.pod("late").Spec.NodeName; got != "node-1" {
		t.Errorf("after a pod was deleted bound to %q, want node-1", got)
	}

}

func TestTooManyPods(t *testing.T) {
	h := newHarness(t,
		node("node-1", "8", "16Gi", 2),
		pod("a", "", "", onNode("node-1")),
		pod("b", "", "", onNode("node-1")),
		pod("c", "", ""),
	)
	h.run()
	p := h.pod("c")
	if c := model.PodCondition(&p.Status, corev1.PodScheduled); p.Spec.NodeName != "" || c == nil || c.Message != "0/1 nodes are available: 1 Too many pods." {
		t.Errorf("node %q condition %+v, want Too many pods", p.Spec.NodeName, c)
	}
	// A finished pod no longer holds its slot.
	a := h.pod("a")
	a.Status.Phase = corev1.PodSucceeded
	if _, err := h.Client.CoreV1().Pods("default").UpdateStatus(context.Background(), a, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.run()
	if got := h.pod("c").Spec.NodeName; got != "node-1" {
		t.Errorf("after a pod finished bound to %q, want node-1", got)
	}
}

func TestIgnoresPodsOfOtherSchedulersGatedAndBoundPods(t *testing.T) {
	other := pod("other", "", "", func(p *corev1.Pod) { p.Spec.SchedulerName = "volcano" })
	gated := pod("gated", "", "", func(p *corev1.Pod) { p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/quota"}} })
	h := newHarness(t, node("node-1", "8", "16Gi", 110), other, gated, pod("bound", "", "", onNode("node-1")))
	h.run()
	if n := h.pod("other").Spec.NodeName; n != "" {
		t.Errorf("pod of another scheduler bound to %s", n)
	}
	if n := h.pod("gated").Spec.NodeName; n != "" {
		t.Errorf("gated pod bound to %s", n)
	}
	// Lifting the gate lets it in.
	g := h.pod("gated")
	g.Spec.SchedulingGates = nil
	if _, err := h.Client.CoreV1().Pods("default").Update(context.Background(), g, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.run()
	if n := h.pod("gated").Spec.NodeName; n != "node-1" {
		t.Errorf("pod bound to %q once its gate was lifted, want node-1", n)
	}
	if len(h.Events.Lines) != 1 {
		t.Errorf("events %q, want only the gated pod's Scheduled", h.Events.Lines)
	}
}

func TestNoNodes(t *testing.T) {
	h := newHarness(t, pod("p", "", ""))
	h.run()
	if c := model.PodCondition(&h.pod("p").Status, corev1.PodScheduled); c == nil || c.Message != "no nodes available to schedule pods" {
		t.Errorf("condition %+v", c)
	}
}

func TestAssumedPodsCountBeforeTheCacheSeesTheBinding(t *testing.T) {
	h := newHarness(t, node("node-a", "2", "4Gi", 110), node("node-b", "2", "4Gi", 110))
	var objs []runtime.Object
	for _, n := range []string{"p1", "p2", "p3", "p4"} {
		objs = append(objs, pod(n, "1", "1Gi"))
	}
	h.create(objs...)
	// Sync all four without letting the listers see any binding.
	for _, key := range []string{"default/p1", "default/p2", "default/p3", "default/p4"} {
		if err := h.sched.Sync(context.Background(), key); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.placements(); !maps.Equal(got, map[string]int{"node-a": 2, "node-b": 2}) {
		t.Errorf("placements %v, want 2 per node: each binding must count before it is observed", got)
	}
	if strings.Contains(strings.Join(h.Events.Lines, "\n"), "FailedScheduling") {
		t.Errorf("events %q", h.Events.Lines)
	}
}

func TestMessageCountsEveryReasonInUpstreamOrder(t *testing.T) {
	h := newHarness(t,
		node("node-1", "8", "16Gi", 110, tainted("dedicated", "db", corev1.TaintEffectNoExecute)),
		node("node-2", "8", "16Gi", 110, notReady),
		node("node-3", "8", "16Gi", 110, labelled("zone", "b")),
		node("node-4", "1", "1Gi", 110, labelled("zone", "a")),
		node("node-5", "8", "16Gi", 110, labelled("zone", "a")),
		pod("filler", "8", "16Gi", onNode("node-5")),
		pod("p", "2", "2Gi", func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{"zone": "a"} }),
	)
	h.run()
	c := model.PodCondition(&h.pod("p").Status, corev1.PodScheduled)
	const want = "0/5 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, " +
		"1 node(s) had untolerated taint {dedicated: db}, 1 node(s) were not ready, 2 Insufficient cpu, 2 Insufficient memory."
	if c == nil || c.Message != want {
		t.Errorf("condition %+v, want message %q", c, want)
	}
}

// BenchmarkSchedule10000PodsOn500Nodes measures placing a rollout's worth of
// pods on a large cluster; one op is all 10,000 pods.
func BenchmarkSchedule10000PodsOn500Nodes(b *testing.B) {
	var nodes []*corev1.Node
	for i := range 500 {
		nodes = append(nodes, node(fmt.Sprintf("node-%03d", i), "32", "128Gi", 110))
	}
	var pods []*corev1.Pod
	for i := range 10000 {
		pods = append(pods, pod(fmt.Sprintf("web-%05d", i), "100m", "256Mi"))
	}
	client := fake.NewSimpleClientset()
	client.PrependReactor("create", "pods", func(k8stesting.Action) (bool, runtime.Object, error) { return true, nil, nil })
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		client.ClearActions()
		ix := cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Pods))
		s := New(&control.Env{Client: client, Clock: clocktesting.NewFakePassiveClock(t0),
			Listers: control.Listers{Pods: corelisters.NewPodLister(ix), PodIndex: ix}})
		q := controltest.New(b).Queue
		hs := s.Watches(q)
		for _, n := range nodes {
			hs[control.Nodes].OnAdd(n, false)
		}
		for _, p := range pods {
			_ = ix.Add(p)
			hs[control.Pods].OnAdd(p, false)
		}
		b.StartTimer()
		for _, key := range q.Added {
			if err := s.Sync(ctx, key); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/pod")
}

func TestUnwiredSchedulerReportsInsteadOfPanicking(t *testing.T) {
	s := New(nil)
	for _, h := range s.Watches(controltest.New(t).Queue) {
		h.OnAdd("not an object", false)
		h.OnAdd(pod("p", "", ""), false)
		h.OnUpdate(nil, nil)
		h.OnDelete(cache.DeletedFinalStateUnknown{Key: "default/p"})
	}
	if err := s.Sync(context.Background(), "default/p"); err == nil {
		t.Error("sync without an environment succeeded")
	}
}
