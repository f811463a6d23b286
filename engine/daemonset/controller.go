package daemonset

import (
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	"rollscope/engine/control"
	"rollscope/model"
	"rollscope/model/kind"
)

// Name is the controller's component name, as in kube-controller-manager.
const Name = "daemonset-controller"

var controllerKind = appsv1.SchemeGroupVersion.WithKind("DaemonSet")

// Controller keeps a daemon pod on every node a DaemonSet should run on. It
// implements control.Controller.
type Controller struct {
	env  *control.Env
	exp  *expectations
	keys control.Keys
	// sets reads the runner's DaemonSet cache; nil when it has none.
	sets appslisters.DaemonSetLister
}

// New returns the DaemonSet controller.
func New(env *control.Env) *Controller {
	if env == nil {
		env = &control.Env{}
	}
	c := &Controller{env: env, exp: newExpectations(env.Clock)}
	if ix := env.Listers.Workloads[kind.DaemonSet]; ix != nil {
		c.sets = appslisters.NewDaemonSetLister(ix)
	}
	return c
}

// Name implements control.Controller.
func (c *Controller) Name() string { return Name }

// Watches implements control.Controller.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.keys.Set(q)
	return map[control.Kind]cache.ResourceEventHandler{
		control.Workload(kind.DaemonSet): cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { c.keys.Add(control.Key(obj)) },
			UpdateFunc: func(_, obj any) { c.keys.Add(control.Key(obj)) },
			DeleteFunc: func(obj any) {
				c.exp.forget(control.Key(obj))
				c.keys.Add(control.Key(obj))
			},
		},
		control.Pods: cache.ResourceEventHandlerFuncs{
			AddFunc:    c.podAdded,
			UpdateFunc: c.podUpdated,
			DeleteFunc: c.podDeleted,
		},
		control.Nodes: cache.ResourceEventHandlerFuncs{
			AddFunc:    func(any) { c.enqueueAll() },
			UpdateFunc: c.nodeUpdated,
			DeleteFunc: func(any) { c.enqueueAll() },
		},
		control.ControllerRevisions: cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { c.keys.Add(owner(obj)) },
			DeleteFunc: func(obj any) { c.keys.Add(owner(obj)) },
		},
	}
}

// enqueueAll looks at every DaemonSet again: a node came, went or changed
// what may run on it.
func (c *Controller) enqueueAll() {
	if c.sets == nil {
		return
	}
	all, _ := c.sets.List(labels.Everything())
	for _, ds := range all {
		c.keys.Add(ds.Namespace + "/" + ds.Name)
	}
}

func (c *Controller) nodeUpdated(oldObj, newObj any) {
	old, ok1 := oldObj.(*corev1.Node)
	cur, ok2 := newObj.(*corev1.Node)
	if !ok1 || !ok2 {
		return
	}
	if model.NodeReady(old) == model.NodeReady(cur) && old.Spec.Unschedulable == cur.Spec.Unschedulable &&
		labels.Equals(old.Labels, cur.Labels) && taintsEqual(old.Spec.Taints, cur.Spec.Taints) {
		return
	}
	c.enqueueAll()
}

func taintsEqual(a, b []corev1.Taint) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].MatchTaint(&b[i]) || a[i].Value != b[i].Value {
			return false
		}
	}
	return true
}

// owner is the key of the DaemonSet controlling obj, or "".
func owner(obj any) string { return control.OwnerKey(obj, controllerKind.Kind) }

func (c *Controller) podAdded(obj any) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	if p.DeletionTimestamp != nil {
		c.podDeleted(p)
		return
	}
	key := owner(p)
	c.exp.created(key)
	c.keys.Add(key)
}

func (c *Controller) podUpdated(oldObj, newObj any) {
	old, ok1 := oldObj.(*corev1.Pod)
	cur, ok2 := newObj.(*corev1.Pod)
	if !ok1 || !ok2 || old.ResourceVersion == cur.ResourceVersion {
		return
	}
	key := owner(cur)
	if cur.DeletionTimestamp != nil && old.DeletionTimestamp == nil {
		c.exp.deleted(key, cur.Name)
		c.keys.Add(key)
		return
	}
	if !model.LabelsOrOwnersChanged(old, cur) && old.Status.Phase == cur.Status.Phase &&
		model.IsPodReady(old) == model.IsPodReady(cur) && old.Spec.NodeName == cur.Spec.NodeName {
		return
	}
	c.keys.Add(key)
	control.AddWhenAvailable(&c.keys, key, old, cur, c.get, func(ds *appsv1.DaemonSet) int32 { return ds.Spec.MinReadySeconds })
}

// get reads a DaemonSet from the cache.
func (c *Controller) get(namespace, name string) (*appsv1.DaemonSet, error) {
	return c.sets.DaemonSets(namespace).Get(name)
}

func (c *Controller) podDeleted(obj any) {
	p, ok := control.Deleted[*corev1.Pod](obj)
	if !ok {
		return
	}
	key := owner(p)
	c.exp.deleted(key, p.Name)
	c.keys.Add(key)
}

// expectations are the creations and deletions a DaemonSet's last syncNodes
// sent that the caches have not shown yet (controller.ControllerExpectations):
// until they have, or five minutes have passed, the set is not managed again.
type expectations struct {
	clock clock.PassiveClock
	mu    sync.Mutex
	byKey map[string]*expected
}

type expected struct {
	add     int
	deletes map[string]bool
	at      time.Time
}

const expectationsTimeout = 5 * time.Minute

func newExpectations(c clock.PassiveClock) *expectations {
	return &expectations{clock: c, byKey: map[string]*expected{}}
}

func (e *expectations) now() time.Time {
	if e.clock == nil {
		return time.Time{}
	}
	return e.clock.Now()
}

func (e *expectations) expect(key string, add int, deletes []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	x := &expected{add: add, deletes: map[string]bool{}, at: e.now()}
	for _, n := range deletes {
		x.deletes[n] = true
	}
	e.byKey[key] = x
}

func (e *expectations) created(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x := e.byKey[key]; x != nil && x.add > 0 {
		x.add--
	}
}

func (e *expectations) deleted(key, pod string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x := e.byKey[key]; x != nil {
		delete(x.deletes, pod)
	}
}

// lower takes back what was expected but never sent (a failed write).
func (e *expectations) lower(key string, add int, deletes []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x := e.byKey[key]; x != nil {
		x.add = max(x.add-add, 0)
		for _, n := range deletes {
			delete(x.deletes, n)
		}
	}
}

func (e *expectations) satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x := e.byKey[key]
	return x == nil || (x.add <= 0 && len(x.deletes) == 0) || e.now().Sub(x.at) > expectationsTimeout
}

func (e *expectations) forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.byKey, key)
}
