package scheduler

import (
	"reflect"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// Name is the scheduler's name, in events and in the spec.schedulerName of
// the pods it schedules.
const Name = corev1.DefaultSchedulerName

// retryInterval is how long a pod that fits nowhere waits before it is tried
// again when no event has said that room was made, like kube-scheduler's
// periodic flush of unschedulable pods.
const retryInterval = 10 * time.Second

// Controller is the embedded default-scheduler. It implements
// control.Controller; its queue keys are pod keys.
type Controller struct {
	env  *control.Env
	pods *control.Namespaced[corev1client.PodInterface]

	mu    sync.Mutex
	queue control.Queue
	nodes *nodeCache
	// waiting holds the pods that fit nowhere, with the cache version they
	// last failed at: until the version moves, trying again is pointless.
	waiting map[string]uint64
	// retryAt holds when each waiting pod's periodic retry is due, so that a
	// burst of failed attempts arms one timer, not one each.
	retryAt map[string]time.Time
}

// New returns the scheduler.
func New(env *control.Env) *Controller {
	if env == nil {
		env = &control.Env{} // Sync will say what is missing
	}
	pods := control.NewNamespaced(func(ns string) corev1client.PodInterface { return env.Client.CoreV1().Pods(ns) })
	return &Controller{env: env, pods: pods, nodes: newNodeCache(), waiting: map[string]uint64{}, retryAt: map[string]time.Time{}}
}

// Name implements control.Controller.
func (c *Controller) Name() string { return Name }

// Watches implements control.Controller. Pod and node events keep the
// per-node accounting current and enqueue the pods to schedule.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.mu.Lock()
	c.queue = q
	c.mu.Unlock()
	return map[control.Kind]cache.ResourceEventHandler{
		control.Pods: cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { c.podChanged(nil, obj) },
			UpdateFunc: c.podChanged,
			DeleteFunc: c.podDeleted,
		},
		control.Nodes: cache.ResourceEventHandlerFuncs{
			AddFunc:    c.nodeChanged,
			UpdateFunc: func(_, obj any) { c.nodeChanged(obj) },
			DeleteFunc: c.nodeDeleted,
		},
	}
}

// responsible reports whether p is a pod this scheduler should place now:
// unbound, alive, its own, and not held back by scheduling gates.
func responsible(p *corev1.Pod) bool {
	return p.Spec.NodeName == "" && p.DeletionTimestamp == nil && !finished(p) &&
		(p.Spec.SchedulerName == "" || p.Spec.SchedulerName == Name) &&
		len(p.Spec.SchedulingGates) == 0
}

func podKey(p *corev1.Pod) string { return p.Namespace + "/" + p.Name }

// samePlacement reports whether cur holds what old held on its node: the
// same bound, running pod with the very same containers (stored pods are
// never modified, so shared containers ask for the same resources). Such an
// update — a status write, nearly every pod event — leaves the node cache
// as old left it, so it is not looked up (a map of every placed pod).
func samePlacement(old, cur *corev1.Pod) bool {
	return old != nil && old.UID == cur.UID && old.Spec.NodeName != "" && old.Spec.NodeName == cur.Spec.NodeName &&
		!finished(old) && !finished(cur) &&
		sameElements(old.Spec.Containers, cur.Spec.Containers) && sameElements(old.Spec.InitContainers, cur.Spec.InitContainers) &&
		len(old.Spec.Overhead) == 0 && len(cur.Spec.Overhead) == 0
}

// sameElements reports whether a and b are the same slice of the same array.
func sameElements[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func (c *Controller) podChanged(oldObj, obj any) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	freed := false
	if old, _ := oldObj.(*corev1.Pod); !samePlacement(old, p) {
		freed = c.nodes.observePod(nameOf(p), p)
	}
	if !responsible(p) {
		if len(c.waiting) > 0 || len(c.retryAt) > 0 {
			c.forgetWaitingLocked(podKey(p))
		}
	} else {
		key := podKey(p)
		if old, ok := oldObj.(*corev1.Pod); ok && (!reflect.DeepEqual(old.Spec, p.Spec) || !reflect.DeepEqual(old.Labels, p.Labels)) {
			// The pod asks for something else now (a toleration, a selector):
			// its last failure says nothing about this attempt.
			delete(c.waiting, key)
		}
		if !c.nodes.isAssumed(nameOf(p)) && c.queue != nil {
			c.queue.Add(key)
		}
	}
	if freed {
		c.retryWaitingLocked()
	}
}

func (c *Controller) podDeleted(obj any) {
	p, ok := control.Deleted[*corev1.Pod](obj)
	if !ok {
		return
	}
	key := podKey(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forgetWaitingLocked(key)
	if c.nodes.forgetPod(nameOf(p), p.UID) {
		c.retryWaitingLocked()
	}
}

func (c *Controller) nodeChanged(obj any) {
	n, ok := obj.(*corev1.Node)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nodes.setNode(n) {
		c.retryWaitingLocked()
	}
}

func (c *Controller) nodeDeleted(obj any) {
	n, ok := control.Deleted[*corev1.Node](obj)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nodes.removeNode(n.Name) {
		// Nothing fits better with a node fewer, but the waiting pods'
		// "0/N nodes" message is now out of date.
		c.retryWaitingLocked()
	}
}

// retryWaitingLocked enqueues every pod that fits nowhere, in key order.
func (c *Controller) retryWaitingLocked() {
	if c.queue == nil {
		return
	}
	for _, key := range sortedKeys(c.waiting) {
		c.queue.Add(key)
	}
}

func (c *Controller) forgetWaitingLocked(key string) {
	delete(c.waiting, key)
	delete(c.retryAt, key)
}
