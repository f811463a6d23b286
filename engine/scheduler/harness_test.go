package scheduler

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
)

var t0 = controltest.Start

// harness runs the scheduler against a fake clientset whose binding
// subresource sets spec.nodeName, as the API server's does. Listers and
// handlers see the API only when the test calls observe.
type harness struct {
	*controltest.Harness
	sched *Controller
}

func newHarness(t *testing.T, objs ...runtime.Object) *harness {
	t.Helper()
	h := &harness{Harness: controltest.New(t)}
	h.Client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := a.(k8stesting.CreateAction).GetObject().(*corev1.Binding)
		obj, err := h.Client.Tracker().Get(corev1.SchemeGroupVersion.WithResource("pods"), b.Namespace, b.Name)
		if err != nil {
			return true, nil, err
		}
		p := obj.(*corev1.Pod)
		if p.Spec.NodeName != "" {
			return true, nil, fmt.Errorf("pod %s is already assigned to node %q", p.Name, p.Spec.NodeName)
		}
		p.Spec.NodeName = b.Target.Name
		return true, nil, h.Client.Tracker().Update(corev1.SchemeGroupVersion.WithResource("pods"), p, p.Namespace)
	})
	h.sched = New(h.Env)
	h.Watch(h.sched)
	h.AddToAPI(objs...)
	h.observe()
	h.Client.ClearActions()
	return h
}

// observe feeds the listers and handlers with the API's current state.
func (h *harness) observe() {
	h.T.Helper()
	h.Observe(control.Nodes, control.Pods)
}

// run syncs every queued key until the queue is empty, observing the API
// after each sync as the simulation runner does. Delayed keys are not run.
func (h *harness) run() {
	h.T.Helper()
	for i := 0; len(h.Queue.Added) > 0; i++ {
		if i > 10000 {
			h.T.Fatal("the scheduler keeps enqueueing: busy loop")
		}
		key := h.Queue.Added[0]
		h.Queue.Added = h.Queue.Added[1:]
		if err := h.sched.Sync(context.Background(), key); err != nil {
			h.T.Fatalf("sync %s: %v", key, err)
		}
		h.observe()
	}
}

func (h *harness) create(objs ...runtime.Object) {
	h.T.Helper()
	h.AddToAPI(objs...)
	h.observe()
}

func (h *harness) pod(name string) *corev1.Pod {
	h.T.Helper()
	p, err := h.Client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.T.Fatal(err)
	}
	return p
}

// placements maps node name → number of pods bound to it.
func (h *harness) placements() map[string]int {
	h.T.Helper()
	pods, err := h.Client.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.T.Fatal(err)
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
