package nodegroup

import (
	"context"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model"
)

// DefaultLaunchDelay is how long the cloud takes from terminating a group's
// instance to the replacement's Node object appearing.
const DefaultLaunchDelay = 10 * time.Second

// groupKeyPrefix marks a group's key; node keys are bare node names, which
// can never contain ':'.
const groupKeyPrefix = "group:"

// Controller keeps every group at its size and boots the nodes it creates.
type Controller struct {
	// LaunchDelay is how long a replacement takes to appear; zero replaces
	// at once. New sets it to DefaultLaunchDelay.
	LaunchDelay time.Duration
	// Heartbeat, when positive, makes each Ready node post its conditions
	// again this often, as a kubelet does; a real node lifecycle controller
	// marks silent nodes Unknown. Zero (the default) posts nothing more, so
	// that a quiet simulation has no timers left and can end.
	Heartbeat time.Duration

	env    *control.Env
	groups []Group
	queue  control.Queue

	mu    sync.Mutex // guards state
	state map[string]*groupState
}

// groupState is what the controller remembers of one group between syncs.
type groupState struct {
	seeded   bool                 // the group's first nodes exist
	next     int                  // next unused node index
	launches []time.Time          // replacements being launched, by when they appear
	created  map[string]time.Time // nodes created and not yet seen in the cache
}

// New returns a controller for groups.
func New(env *control.Env, groups []Group) *Controller {
	return &Controller{
		LaunchDelay: DefaultLaunchDelay,
		env:         env,
		groups:      append([]Group(nil), groups...),
		state:       map[string]*groupState{},
	}
}

// Name implements control.Controller.
func (c *Controller) Name() string { return "node-group-controller" }

// Watches implements control.Controller. It also queues every group once, so
// that the groups fill themselves as soon as the runner starts syncing.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.queue = q
	for i := range c.groups {
		q.Add(groupKeyPrefix + c.groups[i].Name)
	}
	onNode := func(obj any) {
		if n, ok := obj.(*corev1.Node); ok && c.owns(n) {
			q.Add(n.Name)
		}
	}
	return map[control.Kind]cache.ResourceEventHandler{
		control.Nodes: cache.ResourceEventHandlerFuncs{
			AddFunc: onNode,
			UpdateFunc: func(oldObj, newObj any) {
				onNode(newObj)
				// A node detached for a surge (or re-attached) changes the
				// group's count at once: the group launches or drops a
				// replacement without waiting for its next unrelated sync.
				old, ok1 := oldObj.(*corev1.Node)
				n, ok2 := newObj.(*corev1.Node)
				if ok1 && ok2 && c.owns(n) && old.Annotations[model.DetachedAnnotation] != n.Annotations[model.DetachedAnnotation] {
					q.Add(groupKeyPrefix + GroupOf(n))
				}
			},
			DeleteFunc: func(obj any) {
				if n, ok := control.Deleted[*corev1.Node](obj); ok && c.owns(n) {
					q.Add(groupKeyPrefix + GroupOf(n))
				}
			},
		},
	}
}

// Sync implements control.Controller for a group's key or a node's.
func (c *Controller) Sync(ctx context.Context, key string) error {
	if name, ok := strings.CutPrefix(key, groupKeyPrefix); ok {
		return c.syncGroup(ctx, name)
	}
	return c.syncNode(ctx, key)
}

// owns reports whether the node belongs to one of the controller's groups.
func (c *Controller) owns(n *corev1.Node) bool {
	_, ok := c.group(GroupOf(n))
	return ok
}

// group returns the named group and its position in the list.
func (c *Controller) group(name string) (int, bool) {
	if name == "" {
		return 0, false
	}
	for i := range c.groups {
		if c.groups[i].Name == name {
			return i, true
		}
	}
	return 0, false
}

// stateLocked returns a group's state; c.mu must be held.
func (c *Controller) stateLocked(group string) *groupState {
	st := c.state[group]
	if st == nil {
		st = &groupState{created: map[string]time.Time{}}
		c.state[group] = st
	}
	return st
}

// seen records that a created node reached the cache.
func (c *Controller) seen(group, node string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.state[group]; st != nil {
		delete(st.created, node)
	}
}

func (c *Controller) requeue(key string, d time.Duration) {
	if c.queue == nil {
		return
	}
	if d > 0 {
		c.queue.AddAfter(key, d)
	} else {
		c.queue.Add(key)
	}
}
