package noderoll

import (
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/engine/nodegroup"
)

// WakeGroupsOnDetach wraps the node-group controller so that detaching a
// node queues its group at once, and the group launches the surge
// replacement without waiting for its next unrelated sync. The node-group
// controller queues a group only when one of its nodes is deleted; until it
// also does so on detach, the embedded cluster registers it through this.
// groupKey must be the node-group controller's key for a group.
func WakeGroupsOnDetach(groups control.Controller, groupKey func(group string) string) control.Controller {
	return wakeOnDetach{Controller: groups, key: groupKey}
}

type wakeOnDetach struct {
	control.Controller
	key func(string) string
}

// Watches adds, to the wrapped controller's node handlers, one that queues
// a node's group when the node is detached.
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
			if n, ok := newObj.(interface{ GetAnnotations() map[string]string }); ok {
				old, _ := oldObj.(interface{ GetAnnotations() map[string]string })
				was := old != nil && old.GetAnnotations()[nodegroup.AnnotationDetached] == "true"
				if !was && n.GetAnnotations()[nodegroup.AnnotationDetached] == "true" {
					if node, ok := newObj.(interface{ GetLabels() map[string]string }); ok {
						q.Add(w.key(node.GetLabels()[nodegroup.LabelGroup]))
					}
				}
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
