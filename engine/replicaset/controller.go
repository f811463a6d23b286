package replicaset

import (
	"sync"

	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// Controller keeps ReplicaSets (or ReplicationControllers) at their desired
// number of pods. It implements control.Controller.
type Controller struct {
	env   *control.Env
	kind  kindAdapter
	name  string
	exp   *expectations
	gates gates
	burst int
	// orphans are the pods without a controller, and owned those with
	// one, by its UID; both kept by the handlers.
	orphans *orphanSet
	owned   *ownedIndex

	mu    sync.Mutex
	queue control.Queue
	// spare are the per-pod slices of the last sync, for the next one.
	spare *candidates
}

// NewReplicaSet returns the controller of apps/v1 ReplicaSets, named
// "replicaset-controller" as in kube-controller-manager.
func NewReplicaSet(env *control.Env) *Controller {
	env = orEmpty(env)
	return newController(env, replicaSets{env: env}, "replicaset-controller")
}

// NewReplicationController returns the controller of v1
// ReplicationControllers, named "replicationcontroller-controller".
func NewReplicationController(env *control.Env) *Controller {
	env = orEmpty(env)
	return newController(env, replicationControllers{env: env}, "replicationcontroller-controller")
}

// orEmpty lets a controller built without an environment exist; its Sync then
// says what is missing instead of crashing.
func orEmpty(env *control.Env) *control.Env {
	if env == nil {
		return &control.Env{}
	}
	return env
}

func newController(env *control.Env, kind kindAdapter, name string) *Controller {
	return &Controller{
		env:     env,
		kind:    kind,
		name:    name,
		exp:     newExpectations(env.Clock),
		gates:   defaultGates,
		burst:   burstReplicas,
		orphans: newOrphanSet(),
		owned:   newOwnedIndex(kind.gvk().Kind),
	}
}

// Name implements control.Controller.
func (c *Controller) Name() string { return c.name }

// Watches implements control.Controller: pod events and events of the owner
// kind enqueue the owners concerned.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.mu.Lock()
	c.queue = q
	c.mu.Unlock()
	return map[control.Kind]cache.ResourceEventHandler{
		control.Pods: cache.ResourceEventHandlerFuncs{
			AddFunc:    c.podAdded,
			UpdateFunc: c.podUpdated,
			DeleteFunc: c.podRemoved,
		},
		c.kind.watched(): cache.ResourceEventHandlerFuncs{
			AddFunc:    c.ownerAdded,
			UpdateFunc: c.ownerUpdated,
			DeleteFunc: c.ownerDeleted,
		},
	}
}

// q returns the queue given to Watches, or nil before Watches was called.
func (c *Controller) q() control.Queue {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.queue
}
