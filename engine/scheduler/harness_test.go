package scheduler

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"rollscope/engine/control"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// harness runs the scheduler against a fake clientset whose binding
// subresource sets spec.nodeName, as the API server's does. Listers and
// handlers see the API only when the test calls observe.
type harness struct {
	t      *testing.T
	client *fake.Clientset
	clock  *clocktesting.FakePassiveClock
	ix     map[control.Kind]cache.Indexer
	sched  *Controller
	queue  *queue
	events *events
	hs     map[control.Kind]cache.ResourceEventHandler
	rv     int
}

type queue struct {
	added []string
	after []string
}

func (q *queue) Add(key string) { q.added = append(q.added, key) }
func (q *queue) AddAfter(key string, d time.Duration) {
	q.after = append(q.after, fmt.Sprintf("%s@%s", key, d))
}

type events struct{ lines []string }

func (e *events) Eventf(obj runtime.Object, eventType, reason, format string, args ...any) {
	e.lines = append(e.lines, eventType+" "+reason+" "+fmt.Sprintf(format, args...))
}

func newHarness(t *testing.T, objs ...runtime.Object) *harness {
	t.Helper()
	h := &harness{
		t:      t,
		client: fake.NewSimpleClientset(objs...),
		clock:  clocktesting.NewFakePassiveClock(t0),
		ix:     map[control.Kind]cache.Indexer{},
		queue:  &queue{},
		events: &events{},
	}
	for _, k := range []control.Kind{control.Pods, control.Nodes} {
		h.ix[k] = cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(k))
	}
	h.client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := a.(k8stesting.CreateAction).GetObject().(*corev1.Binding)
		obj, err := h.client.Tracker().Get(corev1.SchemeGroupVersion.WithResource("pods"), b.Namespace, b.Name)
		if err != nil {
			return true, nil, err
		}
		p := obj.(*corev1.Pod)
		if p.Spec.NodeName != "" {
			return true, nil, fmt.Errorf("pod %s is already assigned to node %q", p.Name, p.Spec.NodeName)
		}
		p.Spec.NodeName = b.Target.Name
		return true, nil, h.client.Tracker().Update(corev1.SchemeGroupVersion.WithResource("pods"), p, p.Namespace)
	})
	h.sched = New(&control.Env{
		Client: h.client,
		Clock:  h.clock,
		Events: h.events,
		Listers: control.Listers{
			Pods:     corelisters.NewPodLister(h.ix[control.Pods]),
			Nodes:    corelisters.NewNodeLister(h.ix[control.Nodes]),
			PodIndex: h.ix[control.Pods],
		},
	})
	h.hs = h.sched.Watches(h.queue)
	h.observe()
	h.client.ClearActions()
	return h
}

// observe feeds the listers and handlers with the API's current state.
func (h *harness) observe() {
	h.t.Helper()
	ctx := context.Background()
	nodes, err := h.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	var objs []runtime.Object
	for i := range nodes.Items {
		objs = append(objs, &nodes.Items[i])
	}
	h.reconcile(control.Nodes, objs)
	pods, err := h.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	objs = nil
	for i := range pods.Items {
		objs = append(objs, &pods.Items[i])
	}
	h.reconcile(control.Pods, objs)
}

func (h *harness) reconcile(kind control.Kind, current []runtime.Object) {
	ix, handler := h.ix[kind], h.hs[kind]
	seen := map[string]bool{}
	sort.Slice(current, func(i, j int) bool { return control.Key(current[i]) < control.Key(current[j]) })
	for _, obj := range current {
		key := control.Key(obj)
		seen[key] = true
		old, exists, _ := ix.GetByKey(key)
		if exists && equality.Semantic.DeepEqual(withoutVersion(old), withoutVersion(obj)) {
			continue
		}
		h.rv++
		obj.(metav1.Object).SetResourceVersion(strconv.Itoa(h.rv))
		_ = ix.Update(obj)
		if exists {
			handler.OnUpdate(old, obj)
		} else {
			handler.OnAdd(obj, false)
		}
	}
	for _, key := range ix.ListKeys() {
		if !seen[key] {
			old, _, _ := ix.GetByKey(key)
			_ = ix.Delete(old)
			handler.OnDelete(old)
		}
	}
}

func withoutVersion(obj any) runtime.Object {
	c := obj.(runtime.Object).DeepCopyObject()
	c.(metav1.Object).SetResourceVersion("")
	return c
}

// run syncs every queued key until the queue is empty, observing the API
// after each sync as the simulation runner does. Delayed keys are not run.
func (h *harness) run() {
	h.t.Helper()
	for i := 0; len(h.queue.added) > 0; i++ {
		if i > 10000 {
			h.t.Fatal("the scheduler keeps enqueueing: busy loop")
		}
		key := h.queue.added[0]
		h.queue.added = h.queue.added[1:]
		if err := h.sched.Sync(context.Background(), key); err != nil {
			h.t.Fatalf("sync %s: %v", key, err)
		}
		h.observe()
	}
}

func (h *harness) create(objs ...runtime.Object) {
	h.t.Helper()
	for _, obj := range objs {
		if err := h.client.Tracker().Add(obj); err != nil {
			h.t.Fatal(err)
		}
	}
	h.observe()
}

func (h *harness) pod(name string) *corev1.Pod {
	h.t.Helper()
	p, err := h.client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

// placements maps node name → number of pods bound to it.
func (h *harness) placements() map[string]int {
	h.t.Helper()
	pods, err := h.client.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]int{}
	for _, p := range pods.Items {
		out[p.Spec.NodeName]++
	}
	return out
}

type nodeOpt func(*corev1.Node)

func node(name string, cpu, memory string, pods int, opts ...nodeOpt) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: corev1.NodeStatus{
			Allocatable: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse(cpu),
				corev1.ResourceMemory: resource.MustParse(memory),
				corev1.ResourcePods:   *resource.NewQuantity(int64(pods), resource.DecimalSI),
			},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		},
	}
	for _, o := range opts {
		o(n)
	}
	return n
}

func cordoned(n *corev1.Node) { n.Spec.Unschedulable = true }

func notReady(n *corev1.Node) { n.Status.Conditions[0].Status = corev1.ConditionFalse }

func tainted(key, value string, effect corev1.TaintEffect) nodeOpt {
	return func(n *corev1.Node) {
		n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: key, Value: value, Effect: effect})
	}
}

func labelled(k, v string) nodeOpt { return func(n *corev1.Node) { n.Labels[k] = v } }

type podOpt func(*corev1.Pod)

func pod(name, cpu, memory string, opts ...podOpt) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "app", Image: "app:v1",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{}},
		}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending},
	}
	if cpu != "" {
		p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse(cpu)
	}
	if memory != "" {
		p.Spec.Containers[0].Resources.Requests[corev1.ResourceMemory] = resource.MustParse(memory)
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func onNode(n string) podOpt {
	return func(p *corev1.Pod) { p.Spec.NodeName = n; p.Status.Phase = corev1.PodRunning }
}

func tolerating(t corev1.Toleration) podOpt {
	return func(p *corev1.Pod) { p.Spec.Tolerations = append(p.Spec.Tolerations, t) }
}
