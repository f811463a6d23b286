package cluster

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model/kind"
)

// The put and delete steps of Apply, one per kind: each stores the object,
// refiles it in the indexes when what it is filed under changed, and notes on
// the timeline what the change means to a rollout. Each reports whether the
// picture changed.

func (c *Cluster) putDeployment(d *appsv1.Deployment, u update) bool {
	key := objectKey(d.Namespace, d.Name)
	old := c.deployments[key]
	if old != nil && sameResourceVersion(old, d) {
		return false
	}
	if _, wasGone := c.deletedAt[key]; (old != nil && old.UID != d.UID) || wasGone {
		// A deployment recreated under the same name starts a new story.
		delete(c.timelines, key)
		delete(c.deletedAt, key)
		old = nil
	}
	c.fleetDeployment(old, d, u)
	if old == nil {
		c.deploymentSet++
	}
	c.deployments[key] = d
	if old != nil {
		c.noteConditions(key, old, d, u.at)
	} else {
		c.replayEvents(ObjectRef{Kind: "Deployment", Namespace: d.Namespace, Name: d.Name}, u.at)
	}
	return true
}

func (c *Cluster) putReplicaSet(rs *appsv1.ReplicaSet, u update) bool {
	key := objectKey(rs.Namespace, rs.Name)
	old := c.replicaSets[key]
	if old != nil && sameResourceVersion(old, rs) {
		return false
	}
	oldOwner, hadOwner := replicaSetOwner(old)
	owner, hasOwner := replicaSetOwner(rs)
	c.replicaSetsByOwner.move(oldOwner, hadOwner, owner, hasOwner, key)
	c.replicaSets[key] = rs
	c.fleetReplicaSet(old, rs, u)
	c.noteScale(old, rs, u)
	if old == nil {
		c.replayEvents(ObjectRef{Kind: "ReplicaSet", Namespace: rs.Namespace, Name: rs.Name}, u.at)
	}
	return true
}

func (c *Cluster) putPod(p *corev1.Pod, u update) bool {
	key := objectKey(p.Namespace, p.Name)
	old := c.pods[key]
	var oldPod *corev1.Pod
	if old != nil {
		if sameResourceVersion(old.pod, p) {
			return false
		}
		oldPod = old.pod
	}
	oldOwner, hadOwner := podOwner(oldPod)
	owner, hasOwner := podOwner(p)
	c.podsByOwner.move(oldOwner, hadOwner, owner, hasOwner, key)
	c.podRows.note(oldOwner, hadOwner, p.Namespace, p.Name)
	if owner != oldOwner || !hadOwner {
		c.podRows.note(owner, hasOwner, p.Namespace, p.Name)
	}
	oldNode, hadNode := nodeOf(oldPod)
	node, hasNode := nodeOf(p)
	c.podsByNode.move(oldNode, hadNode, node, hasNode, key)
	pe := &podEntry{pod: p, row: podRow(p), facts: factsOf(p)}
	if old == nil || old.facts.active != pe.facts.active || old.pod.Spec.NodeName != p.Spec.NodeName {
		c.countOnNode(old, -1)
		c.countOnNode(pe, 1)
	}
	c.fleetPod(old, pe, u.at)
	c.pods[key] = pe
	c.fileEntry(oldOwner, hadOwner, owner, hasOwner, old, pe)
	if old == nil {
		c.replayEvents(ObjectRef{Kind: "Pod", Namespace: p.Namespace, Name: p.Name}, u.at)
	}
	return true
}

// countOnNode adds n to the active-pod count of the node pe's pod is bound
// to, if it is active and bound; a nil entry counts for nothing.
func (c *Cluster) countOnNode(pe *podEntry, n int) {
	if pe == nil || !pe.facts.active || !pe.facts.bound {
		return
	}
	node := pe.pod.Spec.NodeName
	if c.activeOnNode[node] += n; c.activeOnNode[node] == 0 {
		delete(c.activeOnNode, node)
	}
}

func (c *Cluster) putNode(n *corev1.Node) bool {
	old := c.nodes[n.Name]
	if old != nil && sameResourceVersion(old, n) {
		return false
	}
	c.fleetNode(old, n)
	c.nodes[n.Name] = n
	c.nodeRows.forget()
	return true
}

func (c *Cluster) putEvent(e *corev1.Event, u update) bool {
	key := objectKey(e.Namespace, e.Name)
	old := c.events[key]
	if old != nil && sameResourceVersion(old, e) {
		return false
	}
	var oldAbout ObjectRef
	if old != nil {
		oldAbout = involved(old)
	}
	c.eventsByObject.move(oldAbout, old != nil, involved(e), true, key)
	c.events[key] = e
	c.fleetEvent(e)
	if old == nil || recounted(old, e) {
		c.noteEvent(e, u.at)
	}
	return true
}

// delete forgets the object ref names; the timeline keeps what happened to
// it, except that a deleted deployment's timeline goes with it.
func (c *Cluster) delete(ref ObjectRef, at time.Time) bool {
	key := objectKey(ref.Namespace, ref.Name)
	switch ref.Kind {
	case "Deployment":
		if _, ok := c.deployments[key]; !ok {
			return false
		}
		// The timeline stays: it ends with the deletion (noteGone).
		delete(c.deployments, key)
		c.deploymentSet++
		c.fleetBook.mark(fleetKey{kind.Deployment, ref.Namespace, ref.Name})
	case "ReplicaSet":
		rs, ok := c.replicaSets[key]
		if !ok {
			return false
		}
		if owner, has := replicaSetOwner(rs); has {
			c.replicaSetsByOwner.remove(owner, key)
		}
		c.fleetReplicaSetGone(rs)
		delete(c.replicaSets, key)
	case "Pod":
		pe, ok := c.pods[key]
		if !ok {
			return false
		}
		c.fleetPod(pe, nil, at)
		c.countOnNode(pe, -1)
		if owner, has := podOwner(pe.pod); has {
			c.podsByOwner.remove(owner, key)
			c.fileEntry(owner, true, "", false, pe, nil)
			c.podRows.note(owner, true, ref.Namespace, ref.Name)
		}
		if node, has := nodeOf(pe.pod); has {
			c.podsByNode.remove(node, key)
		}
		delete(c.pods, key)
	case "Node":
		old, ok := c.nodes[ref.Name]
		if !ok {
			return false
		}
		c.fleetNode(old, nil)
		delete(c.nodes, ref.Name)
		c.nodeRows.forget()
	case "Event":
		e, ok := c.events[key]
		if !ok {
			return false
		}
		c.eventsByObject.remove(involved(e), key)
		delete(c.events, key)
	default:
		return c.deleteWorkload(ref)
	}
	return true
}

// replicaSetOwner and podOwner are the UID of the object's controlling
// owner; a nil object or one without a controller has none.
func replicaSetOwner(rs *appsv1.ReplicaSet) (types.UID, bool) {
	if rs == nil {
		return "", false
	}
	return controllerUID(rs)
}

func podOwner(p *corev1.Pod) (types.UID, bool) {
	if p == nil {
		return "", false
	}
	return controllerUID(p)
}

func controllerUID(obj metav1.Object) (types.UID, bool) {
	if ref := controllerOf(obj); ref != nil {
		return ref.UID, true
	}
	return "", false
}

// nodeOf is the node a pod is bound to, if any.
func nodeOf(p *corev1.Pod) (string, bool) {
	if p == nil || p.Spec.NodeName == "" {
		return "", false
	}
	return p.Spec.NodeName, true
}

// involved is the object an event is about.
func involved(e *corev1.Event) ObjectRef {
	o := e.InvolvedObject
	return ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}
