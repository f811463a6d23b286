package scheduler

import (
	"reflect"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// podName names a pod in the cache without joining its namespace and name
// into a key: every update of every pod is observed, most of them status
// writes of bound pods that need no queue key.
type podName struct{ namespace, name string }

func nameOf(p *corev1.Pod) podName { return podName{p.Namespace, p.Name} }

// nodeState is what the scheduler needs to know of one node, derived once
// per node event rather than once per decision.
type nodeState struct {
	node *corev1.Node
	// id numbers the node's name (nodeCache.ids), for the rankings.
	id          int32
	ready       bool
	allocatable amount
	used        *amount // shared with nodeCache.used
}

// placement is a pod the scheduler counts on a node: bound (seen with
// spec.nodeName) or assumed (bound by this scheduler, not yet seen).
type placement struct {
	node     string
	uid      types.UID
	requests amount
	assumed  bool
}

// nodeCache is the scheduler's incremental view of the cluster. Callers hold
// Controller.mu.
type nodeCache struct {
	nodes map[string]*nodeState
	order []*nodeState // by node name, the order decisions walk them in
	// used sums the requests of the pods placed on each node name, including
	// names of nodes not (or no longer) known, so that a node that appears
	// after its pods starts with the right load. Entries are never removed,
	// so that nodeState.used stays valid.
	used map[string]*amount
	// ids numbers every node name ever known, from 0; like used, never
	// forgotten, so that a node removed keeps its number in the rankings.
	ids    map[string]int32
	placed map[podName]placement
	// version counts changes that can make a pod fit where it did not.
	version uint64
	// rankings order the nodes for each kind of pod being scheduled; clock
	// counts decisions, to evict the longest unused.
	rankings map[string]*ranking
	clock    uint64
}

func newNodeCache() *nodeCache {
	return &nodeCache{
		nodes:    map[string]*nodeState{},
		used:     map[string]*amount{},
		ids:      map[string]int32{},
		placed:   map[podName]placement{},
		rankings: map[string]*ranking{},
	}
}

// setNode records a node added or updated. It reports whether the change can
// let waiting pods in.
func (c *nodeCache) setNode(n *corev1.Node) bool {
	id, ok := c.ids[n.Name]
	if !ok {
		id = int32(len(c.ids))
		c.ids[n.Name] = id
	}
	st := &nodeState{node: n, id: id, ready: model.NodeReady(n), allocatable: allocatable(n), used: c.usage(n.Name)}
	old, known := c.nodes[n.Name]
	c.nodes[n.Name] = st
	i, found := slices.BinarySearchFunc(c.order, n.Name, byName)
	if found {
		c.order[i] = st
	} else {
		c.order = slices.Insert(c.order, i, st)
	}
	c.rerank(n.Name)
	if !known {
		c.version++
		return true
	}
	// Heartbeats and image lists change nodes all the time; only what the
	// filters read counts.
	if old.ready != st.ready || old.allocatable != st.allocatable ||
		old.node.Spec.Unschedulable != n.Spec.Unschedulable ||
		!reflect.DeepEqual(old.node.Spec.Taints, n.Spec.Taints) ||
		!reflect.DeepEqual(old.node.Labels, n.Labels) {
		c.version++
		return true
	}
	return false
}

// removeNode forgets a node. Its pods stay counted under its name until they
// are deleted. It reports true: the "0/N nodes" count changed.
func (c *nodeCache) removeNode(name string) bool {
	if _, ok := c.nodes[name]; !ok {
		return false
	}
	delete(c.nodes, name)
	if i, ok := slices.BinarySearchFunc(c.order, name, byName); ok {
		c.order = slices.Delete(c.order, i, i+1)
	}
	c.rerank(name)
	c.version++
	return true
}

// countsOnNode reports whether a pod holds resources on its node: bound and
// not finished. Finished pods are dropped, as kube-scheduler's informer
// filters out Succeeded and Failed pods.
func countsOnNode(p *corev1.Pod) bool { return p.Spec.NodeName != "" && !finished(p) }

func finished(p *corev1.Pod) bool {
	return p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
}

// observePod records a pod added or updated. It reports whether room was
// freed (a pod finished, moved, or shrank).
func (c *nodeCache) observePod(key podName, p *corev1.Pod) bool {
	old, had := c.placed[key]
	if !countsOnNode(p) {
		// An unbound, unfinished pod we assumed is an event older than our binding.
		stale := old.assumed && p.Spec.NodeName == "" && !finished(p)
		if !had || stale {
			return false
		}
		c.unplace(key)
		c.version++
		return true
	}
	now := placement{node: p.Spec.NodeName, uid: p.UID, requests: podRequests(p)}
	if had && old.node == now.node && old.requests == now.requests && old.uid == now.uid {
		if old.assumed {
			c.placed[key] = now // confirmed
		}
		return false
	}
	freed := had && (old.node != now.node || old.requests != now.requests)
	if had {
		c.unplace(key)
	}
	c.place(key, now)
	if freed {
		c.version++
	}
	return freed
}

// forgetPod records a pod deleted. uid guards against a late deletion of an
// older pod of the same name. It reports whether room was freed.
func (c *nodeCache) forgetPod(key podName, uid types.UID) bool {
	old, had := c.placed[key]
	if !had || (uid != "" && old.uid != "" && uid != old.uid) {
		return false
	}
	c.unplace(key)
	c.version++
	return true
}

// assume counts a pod on node before the binding is seen, so that the next
// decision does not offer the same room twice.
func (c *nodeCache) assume(key podName, p *corev1.Pod, node string, requests amount) {
	c.place(key, placement{node: node, uid: p.UID, requests: requests, assumed: true})
}

// unassume takes back an assumption after a failed binding, unless the pod
// has been seen bound since.
func (c *nodeCache) unassume(key podName) {
	if pl, ok := c.placed[key]; ok && pl.assumed {
		c.unplace(key)
		c.version++
	}
}

func (c *nodeCache) isAssumed(key podName) bool {
	pl, ok := c.placed[key]
	return ok && pl.assumed
}

func byName(st *nodeState, name string) int { return strings.Compare(st.node.Name, name) }

// usage returns the running total of requests on node name.
func (c *nodeCache) usage(name string) *amount {
	u, ok := c.used[name]
	if !ok {
		u = &amount{}
		c.used[name] = u
	}
	return u
}

func (c *nodeCache) place(key podName, pl placement) {
	c.placed[key] = pl
	u := c.usage(pl.node)
	*u = u.plus(pl.requests)
	c.rerank(pl.node)
}

func (c *nodeCache) unplace(key podName) {
	pl := c.placed[key]
	delete(c.placed, key)
	u := c.usage(pl.node)
	*u = u.minus(pl.requests)
	c.rerank(pl.node)
}

// sortedKeys returns the keys of m in order, for reproducible enqueueing.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
