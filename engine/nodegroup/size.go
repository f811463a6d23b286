package nodegroup

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
)

// unseenTimeout is how long a created node may stay out of the cache before
// the group stops counting on it (it was deleted before the cache saw it).
const unseenTimeout = time.Minute

// syncGroup keeps a group at its size: its first nodes at once, then a
// replacement, after the launch delay, for every node that went away.
func (c *Controller) syncGroup(ctx context.Context, name string) error {
	pos, ok := c.group(name)
	if !ok {
		return nil
	}
	g := &c.groups[pos]
	if g.Role == RoleBastion {
		// Bastions are cloud instances, not Kubernetes nodes.
		return nil
	}
	nodes, err := c.env.Listers.Nodes.List(labels.SelectorFromSet(labels.Set{model.NodeGroupLabel: g.Name}))
	if err != nil {
		return fmt.Errorf("node group %s: list its nodes from the cache: %w", g.Name, err)
	}
	now := c.env.Clock.Now()
	// Held throughout: node syncs clear expectations in the same state.
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.stateLocked(g.Name)

	counted := 0
	exists := map[string]bool{}
	for _, n := range nodes {
		exists[n.Name] = true
		delete(st.created, n.Name)
		st.next = max(st.next, nodeIndex(g.Name, n.Name)+1)
		if !model.NodeDetached(n) {
			counted++
		}
	}
	for n, at := range st.created {
		if now.Sub(at) > unseenTimeout {
			delete(st.created, n)
			continue
		}
		counted++
	}

	if !st.seeded {
		if len(nodes) > 0 && st.next >= g.Size {
			// The group was already there (rollscope restarted).
			st.seeded = true
		} else {
			return c.seed(ctx, g, pos, st, exists, now)
		}
	}

	var errs []error
	var waiting []time.Time
	for _, at := range st.launches {
		if at.After(now) {
			waiting = append(waiting, at)
			continue
		}
		if err := c.launch(ctx, g, pos, st, g.Spec, now); err != nil {
			errs = append(errs, err)
			waiting = append(waiting, now) // launch again on retry
			continue
		}
		counted++
	}
	delay := c.LaunchDelay
	if g.LaunchDelay > 0 {
		delay = g.LaunchDelay
	}
	for missing := g.Size - counted - len(waiting); missing > 0; missing-- {
		if delay > 0 {
			waiting = append(waiting, now.Add(delay))
			continue
		}
		if err := c.launch(ctx, g, pos, st, g.Spec, now); err != nil {
			errs = append(errs, err)
			waiting = append(waiting, now)
		}
	}
	st.launches = waiting
	if len(waiting) > 0 {
		first := waiting[0]
		for _, at := range waiting[1:] {
			if at.Before(first) {
				first = at
			}
		}
		c.requeue(groupKeyPrefix+g.Name, first.Sub(now))
	}
	return errors.Join(errs...)
}

// seed creates the group's first nodes, <group>-0 … <group>-(Size-1), from
// InitialSpec when set, so that they start out of date.
func (c *Controller) seed(ctx context.Context, g *Group, pos int, st *groupState, exists map[string]bool, now time.Time) error {
	spec := g.Spec
	if g.InitialSpec != "" {
		spec = g.InitialSpec
	}
	var errs []error
	for i := range g.Size {
		name := nodeName(g.Name, i)
		if exists[name] {
			continue
		}
		if _, ok := st.created[name]; ok {
			continue
		}
		if err := c.create(ctx, g, pos, i, st, spec, now); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	st.seeded = true
	st.next = max(st.next, g.Size)
	return nil
}

// Register creates the groups' first nodes, <group>-0 … <group>-(Size-1)
// with their InitialSpec, Ready and untainted as the nodes of a cluster
// that was running before anything was deployed to it. The embedded cluster
// registers them before it creates a scenario's workloads, so that no pod
// is ever found with no node to go to at the start (a FailedScheduling at
// 00:00:00 that no real cluster shows). The controller then finds its
// groups seeded and only replaces what goes away; nodes it launches later
// boot for their group's BootTime. A group that has nodes already (a
// restart on a running cluster) is left as it is.
func Register(ctx context.Context, client kubernetes.Interface, groups []Group, now time.Time) error {
	var errs []error
	for pos := range groups {
		g := groups[pos]
		if g.Role == RoleBastion {
			continue
		}
		there, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: model.NodeGroupLabel + "=" + g.Name})
		if err != nil {
			errs = append(errs, fmt.Errorf("node group %s: list its nodes: %w", g.Name, err))
			continue
		}
		if len(there.Items) > 0 {
			continue
		}
		spec := g.Spec
		if g.InitialSpec != "" {
			spec = g.InitialSpec
		}
		booted := g
		booted.BootTime = 0
		for i := range g.Size {
			node := newNode(&booted, pos, i, spec, now)
			created, err := client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
			if apierrors.IsAlreadyExists(err) {
				continue
			}
			if err == nil && readyCondition(created) == nil {
				created.Status = node.Status
				_, err = client.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{})
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("node group %s: register node %s: %w", g.Name, node.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// launch creates a replacement node with the next unused index.
func (c *Controller) launch(ctx context.Context, g *Group, pos int, st *groupState, spec string, now time.Time) error {
	index := st.next
	st.next++
	return c.create(ctx, g, pos, index, st, spec, now)
}

// create registers a node as its kubelet would: the object, then its status,
// which a real API server drops from a create.
func (c *Controller) create(ctx context.Context, g *Group, pos, index int, st *groupState, spec string, now time.Time) error {
	node := newNode(g, pos, index, spec, now)
	nodes := c.env.Client.CoreV1().Nodes()
	created, err := nodes.Create(ctx, node, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		st.created[node.Name] = now
		return nil
	}
	if err != nil {
		return fmt.Errorf("node group %s: create node %s (it is retried): %w", g.Name, node.Name, err)
	}
	st.created[node.Name] = now
	if readyCondition(created) == nil {
		created.Status = node.Status
		if _, err := nodes.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			// The node's own sync posts the status again.
			return fmt.Errorf("node group %s: post the status of new node %s (it is retried): %w", g.Name, node.Name, err)
		}
	}
	c.requeue(node.Name, g.BootTime)
	return nil
}
