package deployment

import (
	"reflect"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// Watches implements control.Controller. Deployments enqueue themselves;
// ReplicaSets enqueue their owning deployment, or when orphaned every
// deployment that could adopt them; a deleted pod of a Recreate deployment
// enqueues it once its last pod is gone.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.mu.Lock()
	c.queue = q
	c.mu.Unlock()
	return map[control.Kind]cache.ResourceEventHandler{
		control.Deployments: cache.ResourceEventHandlerFuncs{
			AddFunc:    c.deploymentChanged,
			UpdateFunc: func(_, cur any) { c.deploymentChanged(cur) },
			DeleteFunc: c.deploymentChanged,
		},
		control.ReplicaSets: cache.ResourceEventHandlerFuncs{
			AddFunc:    c.replicaSetAdded,
			UpdateFunc: c.replicaSetUpdated,
			DeleteFunc: c.replicaSetDeleted,
		},
		control.Pods: cache.ResourceEventHandlerFuncs{
			DeleteFunc: c.podDeleted,
		},
	}
}

func (c *Controller) deploymentChanged(obj any) {
	if key := control.Key(obj); key != "" {
		if q := c.q(); q != nil {
			q.Add(key)
		}
	}
}

func (c *Controller) replicaSetAdded(obj any) {
	rs, ok := obj.(*appsv1.ReplicaSet)
	if !ok {
		return
	}
	if rs.DeletionTimestamp != nil {
		// Seen for the first time already going away (e.g. after a restart).
		c.replicaSetDeleted(rs)
		return
	}
	if ref := metav1.GetControllerOfNoCopy(rs); ref != nil {
		if d := c.resolveControllerRef(rs.Namespace, ref); d != nil {
			c.enqueue(d)
		}
		return
	}
	// An orphan: every deployment that selects it may want to adopt it.
	for _, d := range c.deploymentsSelecting(rs) {
		c.enqueue(d)
	}
}

func (c *Controller) replicaSetUpdated(old, cur any) {
	oldRS, ok1 := old.(*appsv1.ReplicaSet)
	curRS, ok2 := cur.(*appsv1.ReplicaSet)
	if !ok1 || !ok2 || curRS.ResourceVersion == oldRS.ResourceVersion {
		// Resyncs repeat an unchanged object; nothing to do.
		return
	}
	curRef := metav1.GetControllerOfNoCopy(curRS)
	oldRef := metav1.GetControllerOfNoCopy(oldRS)
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		// The former owner has lost a ReplicaSet.
		if d := c.resolveControllerRef(oldRS.Namespace, oldRef); d != nil {
			c.enqueue(d)
		}
	}
	if curRef != nil {
		if d := c.resolveControllerRef(curRS.Namespace, curRef); d != nil {
			c.enqueue(d)
		}
		return
	}
	if refChanged || !reflect.DeepEqual(curRS.Labels, oldRS.Labels) {
		for _, d := range c.deploymentsSelecting(curRS) {
			c.enqueue(d)
		}
	}
}

func (c *Controller) replicaSetDeleted(obj any) {
	rs, ok := obj.(*appsv1.ReplicaSet)
	if !ok {
		tomb, isTomb := obj.(cache.DeletedFinalStateUnknown)
		if !isTomb {
			return
		}
		if rs, ok = tomb.Obj.(*appsv1.ReplicaSet); !ok {
			return
		}
	}
	// Nobody cares about an orphan going away.
	if ref := metav1.GetControllerOfNoCopy(rs); ref != nil {
		if d := c.resolveControllerRef(rs.Namespace, ref); d != nil {
			c.enqueue(d)
		}
	}
}

// podDeleted wakes a Recreate deployment when its last pod is gone: it waits
// for exactly that before creating the new ReplicaSet's pods.
func (c *Controller) podDeleted(obj any) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		tomb, isTomb := obj.(cache.DeletedFinalStateUnknown)
		if !isTomb {
			return
		}
		if pod, ok = tomb.Obj.(*corev1.Pod); !ok {
			return
		}
	}
	d := c.deploymentOfPod(pod)
	if d == nil || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		return
	}
	selector, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return
	}
	owned := c.ownedReplicaSets(d, selector)
	for _, pods := range c.podsByReplicaSet(d, selector, owned) {
		if len(pods) > 0 {
			return
		}
	}
	c.enqueue(d)
}

// deploymentOfPod follows the pod's controller reference to its ReplicaSet
// and that one's to the deployment.
func (c *Controller) deploymentOfPod(pod *corev1.Pod) *appsv1.Deployment {
	ref := metav1.GetControllerOfNoCopy(pod)
	if ref == nil || ref.Kind != "ReplicaSet" {
		return nil
	}
	rs, err := c.env.Listers.ReplicaSets.ReplicaSets(pod.Namespace).Get(ref.Name)
	if err != nil || rs.UID != ref.UID {
		return nil
	}
	rsRef := metav1.GetControllerOfNoCopy(rs)
	if rsRef == nil {
		return nil
	}
	return c.resolveControllerRef(rs.Namespace, rsRef)
}

// resolveControllerRef returns the deployment a controller reference names,
// if it still exists with that UID.
func (c *Controller) resolveControllerRef(namespace string, ref *metav1.OwnerReference) *appsv1.Deployment {
	if ref.Kind != controllerKind.Kind {
		return nil
	}
	d, err := c.env.Listers.Deployments.Deployments(namespace).Get(ref.Name)
	if err != nil || d.UID != ref.UID {
		return nil
	}
	return d
}

// deploymentsSelecting lists, by name, the deployments whose non-empty
// selector matches the ReplicaSet's labels.
func (c *Controller) deploymentsSelecting(rs *appsv1.ReplicaSet) []*appsv1.Deployment {
	if len(rs.Labels) == 0 {
		return nil
	}
	all, err := c.env.Listers.Deployments.Deployments(rs.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	var out []*appsv1.Deployment
	for _, d := range all {
		selector, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		// An empty selector must match nothing here, not everything.
		if err != nil || selector.Empty() || !selector.Matches(labels.Set(rs.Labels)) {
			continue
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b *appsv1.Deployment) int { return strings.Compare(a.Name, b.Name) })
	return out
}
