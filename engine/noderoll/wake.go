package noderoll

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/engine/nodegroup"
)

// WakeGroupsOnDetach wraps the node-group controller so that detaching a
// node queues its group at once, and the group launches the surge
// replacement without waiting for its next unrelated sync. The node-group
// controller queues a group only when one of its nodes is deleted; until it
// also does so on detach, the embedded cluster registers it through this.
// groupKey must return the node-group controller's queue key for a group.
func WakeGroupsOnDetach(groups control.Controller, groupKey func(group string) string) control.Controller {
	return wakeOnDetach{Controller: groups, key: groupKey}
}

type wakeOnDetach struct {
	control.Controller
	key func(string) string
}

// Watches adds, to the wrapped controller's node handlers, one that queues
// a node's group when the node becomes detached.
func (w wakeOnDetach) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	handlers := w.Controller.Watches(q)
	inner := handlers[control.Nodes]
	handlers[control.Nodes] = cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if inner != nil {
				inner.OnAdd(obj, false)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			if inner != nil {
				inner.OnUpdate(oldObj, newObj)
			}
			old, ok1 := oldObj.(*corev1.Node)
			n, ok2 := newObj.(*corev1.Node)
			if ok1 && ok2 && !detached(old) && detached(n) {
				q.Add(w.key(nodegroup.GroupOf(n)))
			}
		},
		DeleteFunc: func(obj any) {
			if inner != nil {
				inner.OnDelete(obj)
			}
		},
	}
	return handlers
}
