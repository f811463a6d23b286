package argorollout

import (
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// Name is the controller's name, the component of the events Argo's
// controller records.
const Name = "rollouts-controller"

// controllerKind is what the controller writes into its ReplicaSets' owner references.
var controllerKind = argo.GroupVersion.WithKind("Rollout")

// Controller is the Rollout controller. It implements control.Controller.
type Controller struct {
	env *control.Env

	mu    sync.Mutex
	queue control.Queue
}

var _ control.Controller = (*Controller)(nil)

// New returns the Rollout controller on env, which must carry a recorder
// and, to write Rollouts, a dynamic client.
func New(env *control.Env) *Controller { return &Controller{env: env} }

// Name implements control.Controller.
func (c *Controller) Name() string { return Name }

// Watches implements control.Controller: Rollouts enqueue themselves, and
// ReplicaSets and AnalysisRuns the Rollout controlling them (Argo's controller watches no
// pods: a ReplicaSet's status carries their readiness).
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.mu.Lock()
	c.queue = q
	c.mu.Unlock()
	self := func(obj any) {
		if key := control.Key(obj); key != "" {
			q.Add(key)
		}
	}
	owner := func(obj any) {
		if key := control.OwnerKey(obj, controllerKind.Kind); key != "" {
			q.Add(key)
		}
	}
	owned := cache.ResourceEventHandlerFuncs{AddFunc: owner, UpdateFunc: func(_, cur any) { owner(cur) }, DeleteFunc: owner}
	return map[control.Kind]cache.ResourceEventHandler{
		control.Workload(kind.Rollout): cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) {
				// Argo records every Rollout its informer adds; the event
				// counts toward the Rollout's share of events the
				// recorder's spam filter lets through.
				if ro, ok := obj.(*argo.Rollout); ok {
					c.env.Events.Eventf(ro, corev1.EventTypeNormal, "RolloutAddedToInformer", "Rollout resource added to informer: %s/%s", ro.Namespace, ro.Name)
				}
				self(obj)
			},
			UpdateFunc: func(_, cur any) { self(cur) },
			DeleteFunc: self,
		},
		control.ReplicaSets:  owned,
		control.AnalysisRuns: owned,
	}
}

// enqueueAfter adds key once d has passed: the end of a timed pause.
func (c *Controller) enqueueAfter(key string, d time.Duration) {
	c.mu.Lock()
	q := c.queue
	c.mu.Unlock()
	if q != nil {
		q.AddAfter(key, d)
	}
}
