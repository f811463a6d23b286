package kubelet

import (
	"context"
	"math/rand"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
)

// t0 is when every kubelet test starts.
var t0 = controltest.Start

// harness drives one kubelet the way the simulation runner does: syncs in
// virtual-time order, and after each one the caches catch up with the API and
// the kubelet's handlers see the changes.
type harness struct {
	*controltest.Harness
	kubelet *Kubelet
	// history is every status a pod had, by pod name, in order.
	history map[string][]statusAt
}

type statusAt struct {
	at     time.Time
	status corev1.PodStatus
}

func newHarness(t *testing.T, seed int64, rules []ImageRule, opts Options) *harness {
	t.Helper()
	h := &harness{Harness: controltest.New(t), history: map[string][]statusAt{}}
	h.Env.Rand = rand.New(rand.NewSource(seed))
	h.kubelet = New(h.Env, rules, opts)
	h.Watch(h.kubelet)
	return h
}

// restartKubelet replaces the kubelet by a new one with no memory, as when a
// hollow node restarts; the informers list everything again.
func (h *harness) restartKubelet(rules []ImageRule) {
	h.Queue.Forget()
	env := *h.Env
	env.Rand = rand.New(rand.NewSource(99))
	h.kubelet = New(&env, rules, Options{})
	h.Watch(h.kubelet)
	for _, kind := range []control.Kind{control.Nodes, control.Pods} {
		for _, obj := range h.Indexer(kind).List() {
			h.Handlers[kind].OnAdd(obj, true)
		}
	}
}

func (h *harness) addNode(name string, ready bool) {
	h.T.Helper()
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: corev1.NodeStatus{
			Addresses:  []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.7"}},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionFalse}},
		},
	}
	if ready {
		n.Status.Conditions[0].Status = corev1.ConditionTrue
	}
	if _, err := h.Client.CoreV1().Nodes().Create(context.Background(), n, metav1.CreateOptions{}); err != nil {
		h.T.Fatal(err)
	}
	h.observe()
}

func (h *harness) setNodeReady(name string, ready bool) {
	h.T.Helper()
	n, err := h.Client.CoreV1().Nodes().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.T.Fatal(err)
	}
	n.Status.Conditions[0].Status = corev1.ConditionFalse
	if ready {
		n.Status.Conditions[0].Status = corev1.ConditionTrue
	}
	if _, err := h.Client.CoreV1().Nodes().UpdateStatus(context.Background(), n, metav1.UpdateOptions{}); err != nil {
		h.T.Fatal(err)
	}
	h.observe()
}

// addPod creates a pod bound to node with one container per image, named
// a, b, c, ...
func (h *harness) addPod(name, node string, images ...string) *corev1.Pod {
	h.T.Helper()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec:       corev1.PodSpec{NodeName: node, RestartPolicy: corev1.RestartPolicyAlways},
		Status: corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(h.Clock.Now())},
		}},
	}
	for i, img := range images {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: string(rune('a' + i)), Image: img})
	}
	if _, err := h.Client.CoreV1().Pods("default").Create(context.Background(), p, metav1.CreateOptions{}); err != nil {
		h.T.Fatal(err)
	}
	h.observe()
	return p
}

// deletePod does what the API server does on a graceful delete of a bound
// pod: it sets deletionTimestamp to now + grace and leaves the pod in place.
func (h *harness) deletePod(name string, grace int64) {
	h.T.Helper()
	p, err := h.Client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.T.Fatal(err)
	}
	p.DeletionTimestamp = ptrTo(metav1.NewTime(h.Clock.Now().Add(time.Duration(grace) * time.Second)))
	p.DeletionGracePeriodSeconds = &grace
	if _, err := h.Client.CoreV1().Pods("default").Update(context.Background(), p, metav1.UpdateOptions{}); err != nil {
		h.T.Fatal(err)
	}
	h.observe()
}

// runFor syncs every key that falls due within d, in time order.
func (h *harness) runFor(d time.Duration) {
	h.T.Helper()
	h.RunUntil(h.Clock.Now().Add(d), h.observe)
}

func (h *harness) elapsed() time.Duration { return h.Clock.Now().Sub(t0) }

// observe brings the caches up to date with the API and calls the handlers,
// as informers would, and writes down the status of every pod that changed.
func (h *harness) observe() {
	h.T.Helper()
	for _, obj := range h.Observe(control.Pods, control.Nodes) {
		if p, ok := obj.(*corev1.Pod); ok {
			h.history[p.Name] = append(h.history[p.Name], statusAt{h.Clock.Now(), *p.Status.DeepCopy()})
		}
	}
}

// pod returns the pod as the API has it, or nil when it is gone.
func (h *harness) pod(name string) *corev1.Pod {
	p, err := h.Client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return p
}

func (h *harness) mustPod(name string) *corev1.Pod {
	h.T.Helper()
	p := h.pod(name)
	if p == nil {
		h.T.Fatalf("pod %s is gone at %v", name, h.elapsed())
	}
	return p
}

func podCondition(p *corev1.Pod, t corev1.PodConditionType) corev1.PodCondition {
	for _, c := range p.Status.Conditions {
		if c.Type == t {
			return c
		}
	}
	return corev1.PodCondition{}
}

// firstTime returns when the pod's status first satisfied ok.
func (h *harness) firstTime(name string, ok func(*corev1.PodStatus) bool) time.Duration {
	h.T.Helper()
	for _, s := range h.history[name] {
		if ok(&s.status) {
			return s.at.Sub(t0)
		}
	}
	h.T.Fatalf("pod %s never reached the wanted status", name)
	return 0
}

func isReady(s *corev1.PodStatus) bool {
	for _, c := range s.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

var metav1UpdateOptions = metav1.UpdateOptions{}
