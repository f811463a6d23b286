package deployment

import (
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/engine/control"
)

// controllerKind is what the controller writes into its ReplicaSets' owner references.
var controllerKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

// rateLimitedRequeue is how soon upstream's rate-limited queue hands a key
// back on its first retry (the controller forgets the key after every sync,
// so it is always the first).
const rateLimitedRequeue = 5 * time.Millisecond

// Controller is the deployment controller. It implements control.Controller.
type Controller struct {
	env *control.Env

	mu    sync.Mutex
	queue control.Queue
}

var _ control.Controller = (*Controller)(nil)

// New returns the deployment controller, named "deployment-controller" as in
// kube-controller-manager.
func New(env *control.Env) *Controller {
	if env.Events == nil {
		e := *env
		e.Events = discardEvents{}
		env = &e
	}
	return &Controller{env: env}
}

// discardEvents stands in for a missing recorder.
type discardEvents struct{}

func (discardEvents) Eventf(runtime.Object, string, string, string, ...any) {}

// Name implements control.Controller.
func (c *Controller) Name() string { return "deployment-controller" }

// q returns the queue handed to Watches, or nil before that.
func (c *Controller) q() control.Queue {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.queue
}

// enqueue adds the deployment's key to the queue.
func (c *Controller) enqueue(d *appsv1.Deployment) {
	if q, key := c.q(), control.Key(d); q != nil && key != "" {
		q.Add(key)
	}
}

// enqueueAfter adds the deployment's key once after has passed.
func (c *Controller) enqueueAfter(d *appsv1.Deployment, after time.Duration) {
	if q, key := c.q(), control.Key(d); q != nil && key != "" {
		q.AddAfter(key, after)
	}
}
