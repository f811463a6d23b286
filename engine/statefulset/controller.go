package statefulset

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model"
	"rollscope/model/kind"
)

// Name is the controller's component name, as in kube-controller-manager.
const Name = "statefulset-controller"

var controllerKind = appsv1.SchemeGroupVersion.WithKind("StatefulSet")

// Controller keeps StatefulSets at their replicas and revisions. It
// implements control.Controller.
type Controller struct {
	env  *control.Env
	keys control.Keys
	// sets reads the runner's StatefulSet cache; nil when it has none.
	sets appslisters.StatefulSetLister
}

// New returns the StatefulSet controller.
func New(env *control.Env) *Controller {
	if env == nil {
		env = &control.Env{}
	}
	c := &Controller{env: env}
	if ix := env.Listers.Workloads[kind.StatefulSet]; ix != nil {
		c.sets = appslisters.NewStatefulSetLister(ix)
	}
	return c
}

// Name implements control.Controller.
func (c *Controller) Name() string { return Name }

// Watches implements control.Controller: a set's own events, and those of
// the pods and revisions it controls, enqueue it.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.keys.Set(q)
	return map[control.Kind]cache.ResourceEventHandler{
		control.Workload(kind.StatefulSet): cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { c.keys.Add(control.Key(obj)) },
			UpdateFunc: func(_, obj any) { c.keys.Add(control.Key(obj)) },
			DeleteFunc: func(obj any) { c.keys.Add(control.Key(obj)) },
		},
		control.Pods: cache.ResourceEventHandlerFuncs{
			AddFunc:    c.podChanged,
			UpdateFunc: c.podUpdated,
			DeleteFunc: c.podChanged,
		},
		control.ControllerRevisions: cache.ResourceEventHandlerFuncs{
			AddFunc:    c.ownedChanged,
			DeleteFunc: c.ownedChanged,
		},
	}
}

// owner is the key of the StatefulSet controlling obj, or "".
func owner(obj any) string { return control.OwnerKey(obj, controllerKind.Kind) }

func (c *Controller) ownedChanged(obj any) { c.keys.Add(owner(obj)) }

func (c *Controller) podChanged(obj any) { c.keys.Add(owner(obj)) }

// podUpdated enqueues the owner when the update can change what it does:
// phase, readiness, deletion or labels. A pod that just became ready is
// looked at again after the set's minReadySeconds, when it becomes available
// with no event to say so.
func (c *Controller) podUpdated(oldObj, newObj any) {
	old, ok1 := oldObj.(*corev1.Pod)
	cur, ok2 := newObj.(*corev1.Pod)
	if !ok1 || !ok2 || old.ResourceVersion == cur.ResourceVersion {
		return
	}
	if !model.LabelsOrOwnersChanged(old, cur) && old.Status.Phase == cur.Status.Phase &&
		model.IsPodReady(old) == model.IsPodReady(cur) && (old.DeletionTimestamp == nil) == (cur.DeletionTimestamp == nil) {
		return
	}
	key := owner(cur)
	c.keys.Add(key)
	control.AddWhenAvailable(&c.keys, key, old, cur, c.get, func(s *appsv1.StatefulSet) int32 { return s.Spec.MinReadySeconds })
}

// get reads a StatefulSet from the cache.
func (c *Controller) get(namespace, name string) (*appsv1.StatefulSet, error) {
	return c.sets.StatefulSets(namespace).Get(name)
}
