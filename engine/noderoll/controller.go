package noderoll

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/engine/nodegroup"
	"rollscope/model"
)

// Controller rolls the node groups whose nodes carry model.RollAnnotation. Its
// keys are group names.
type Controller struct {
	env    *control.Env
	queue  control.Queue
	groups []nodegroup.Group

	mu    sync.Mutex
	memos map[string]*memo
}

// memo is what the controller remembers of a roll between syncs. Losing it
// (a restart) is safe: the roll validates the cluster again before it goes on.
type memo struct {
	id string
	// validated: the check before touching the group passed.
	validated bool
	// gateFrom is when the last node was terminated or detached: the roll
	// waits the interval after it, then validates, before the next node.
	gateFrom time.Time
	// failingSince is when the current validation first failed;
	// deadlineOn the node this controller wrote its deadline on, which
	// its cache may not show yet. wroteDeadline: it has written or
	// cleared one since it started, so a deadline its cache shows may be
	// one it has cleared since, not one to adopt.
	failingSince  time.Time
	deadlineOn    string
	wroteDeadline bool
	// draining are the nodes seen draining and not yet terminated by the
	// roll: one that leaves the cache was deleted by someone else.
	draining map[string]bool
}

// New returns a roll controller. groups are the node groups the cluster
// runs itself (the embedded cluster's): their drained nodes are terminated
// and replaced, and their maxSurge and maxUnavailable are the defaults of a
// roll. On a live cluster groups is empty.
func New(env *control.Env, groups []nodegroup.Group) *Controller {
	return &Controller{env: env, groups: groups, memos: map[string]*memo{}}
}

// Name implements control.Controller.
func (c *Controller) Name() string { return "node-roll-controller" }

// Watches implements control.Controller: any change to a node of a group
// queues the group (a roll waits on its nodes' drains, readiness and
// replacements); deployments and replica sets coming back to availability
// are caught by the validation tick.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.queue = q
	onNode := func(obj any) {
		if n, ok := control.Deleted[*corev1.Node](obj); ok {
			if g := nodegroup.GroupOf(n); g != "" {
				q.Add(g)
			}
		}
	}
	return map[control.Kind]cache.ResourceEventHandler{
		control.Nodes: cache.ResourceEventHandlerFuncs{
			AddFunc: onNode,
			UpdateFunc: func(oldObj, newObj any) {
				if !deadlineOnly(oldObj, newObj) {
					onNode(newObj)
				}
			},
			DeleteFunc: onNode,
		},
	}
}

// roll is one sync's view of a group's roll.
type roll struct {
	spec  spec
	state string
	// nodes are all the group's nodes; inRoll those carrying the roll.
	nodes, inRoll []*corev1.Node
}

// Sync implements control.Controller: one step of one group's roll.
func (c *Controller) Sync(ctx context.Context, group string) error {
	nodes, err := c.env.Listers.Nodes.List(labels.SelectorFromSet(labels.Set{model.NodeGroupLabel: group}))
	if err != nil {
		return fmt.Errorf("node roll %s: list its nodes from the cache: %w", group, err)
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	r := roll{nodes: nodes}
	for _, n := range nodes {
		if _, ok := n.Annotations[model.RollAnnotation]; ok {
			r.inRoll = append(r.inRoll, n)
		}
	}
	if len(r.inRoll) == 0 {
		c.forget(group)
		return nil
	}
	if r.spec, err = parseSpec(r.inRoll[0].Annotations[model.RollAnnotation]); err != nil {
		return c.setState(ctx, &r, model.RollFailed, err.Error())
	}
	r.state = r.inRoll[0].Annotations[model.RollStateAnnotation]
	m := c.memo(group, r.spec.ID)
	now := c.env.Clock.Now()

	switch r.state {
	case model.RollStopped:
		return c.stop(ctx, &r)
	case model.RollFailed, model.RollFinished:
		return nil
	}
	if wait, err := c.earlierGroupRolling(group, r.spec.Role); err != nil {
		return c.setState(ctx, &r, model.RollFailed, err.Error())
	} else if wait != "" {
		c.queue.AddAfter(group, ValidateTick)
		return nil
	}

	if !m.validated && requestArriving(&r, now) {
		// The node events of the rest of the request queue the group
		// again; the timer only covers a request that never completes.
		c.queue.AddAfter(group, time.Second)
		return nil
	}

	var inFlight, todo []*corev1.Node
	begun := len(r.inRoll) < r.spec.Count
	for _, n := range r.inRoll {
		step := n.Annotations[model.RollNodeAnnotation]
		begun = begun || step != "" || model.NodeDetached(n)
		switch step {
		case model.RollStepDraining:
			m.draining[n.Name] = true
			done, err := c.finishNode(ctx, &r, n)
			if err != nil || r.state == model.RollFailed {
				return err
			}
			if done {
				delete(m.draining, n.Name)
				m.gateFrom = now
			} else {
				inFlight = append(inFlight, n)
			}
		case model.RollStepDrained:
		default:
			todo = append(todo, n)
		}
	}
	if err := c.vanished(ctx, &r, m, now); err != nil {
		return err
	}
	if len(todo) == 0 && len(inFlight) == 0 {
		return c.finish(ctx, &r)
	}
	if r.state == model.RollPaused {
		// A paused roll is the operator's to hold: it validates nothing,
		// so it cannot fail meanwhile, and shows no deadline. On resume
		// the validation starts again with its whole timeout, as a new
		// wait.
		m.failingSince = time.Time{}
		return c.clearDeadline(ctx, &r, m)
	}
	if !m.validated && begun && m.gateFrom.IsZero() {
		// Restarted mid-roll: check the cluster before going on.
		m.gateFrom = now.Add(-r.spec.interval())
	}
	m.validated = m.validated || begun

	if !m.validated {
		if reason := validate(c.env.Listers, r.nodes, r.spec); reason != "" {
			return c.validationFailed(ctx, &r, m, now, "before the roll", reason)
		}
		m.failingSince = time.Time{}
		if err := c.clearDeadline(ctx, &r, m, todo, inFlight); err != nil {
			return err
		}
		// Validated only once every node is tainted: a failed taint is
		// retried with the check before it.
		tainted, err := c.taint(ctx, todo)
		if err != nil {
			return err
		}
		m.validated = true
		c.env.Events.Eventf(r.inRoll[0], corev1.EventTypeNormal, "RollStarted", "Rolling %d nodes of group %s", len(r.inRoll), group)
		if tainted {
			// The taints' node events queue the group again; the nodes
			// read now are older than the taints.
			return nil
		}
	}
	if !m.gateFrom.IsZero() {
		due := m.gateFrom.Add(r.spec.interval())
		if now.Before(due) {
			c.queue.AddAfter(group, due.Sub(now))
			return nil
		}
		if reason := validate(c.env.Listers, r.nodes, r.spec); reason != "" {
			return c.validationFailed(ctx, &r, m, now, "after the last node", reason)
		}
		m.failingSince = time.Time{}
		if err := c.clearDeadline(ctx, &r, m, todo, inFlight); err != nil {
			return err
		}
		m.gateFrom = time.Time{}
		if r.spec.Step && len(inFlight) == 0 && r.state == model.RollRunning {
			return c.setState(ctx, &r, model.RollWaiting, "")
		}
	}
	if r.state != model.RollRunning {
		return nil
	}
	return c.advance(ctx, &r, m, inFlight, todo, now)
}

// advance detaches surge nodes or starts drains, up to the group's concurrency.
func (c *Controller) advance(ctx context.Context, r *roll, m *memo, inFlight, todo []*corev1.Node, now time.Time) error {
	settings, err := c.settings(r)
	if err != nil {
		return c.setState(ctx, r, model.RollFailed, err.Error())
	}
	noneUpToDate := true
	for _, n := range r.nodes {
		if _, inRoll := n.Annotations[model.RollAnnotation]; !inRoll && !model.NodeDetached(n) && model.NodeReady(n) {
			noneUpToDate = false
			break
		}
	}
	surge, concurrency := settings.Concurrency(r.spec.Role, len(todo)+len(inFlight), r.spec.Step)
	if concurrency < 1 {
		return c.setState(ctx, r, model.RollFailed, fmt.Sprintf("group %s resolves to maxSurge %d and maxUnavailable %d: no node could ever be replaced (raise one of them)",
			r.spec.Group, settings.MaxSurge, settings.MaxUnavailable))
	}

	// Surge: detach nodes from the end of the list, so that the group
	// launches their replacements before anything is drained. With no node
	// up to date, detach one first and validate (kops' toe-dip).
	var attached, isDetached []*corev1.Node
	for _, n := range todo {
		if model.NodeDetached(n) {
			isDetached = append(isDetached, n)
		} else {
			attached = append(attached, n)
		}
	}
	for _, n := range inFlight {
		if model.NodeDetached(n) {
			isDetached = append(isDetached, n)
		}
	}
	want := surge
	if noneUpToDate {
		want = min(want, 1)
	}
	if missing := want - len(isDetached); missing > 0 && len(attached) > 0 {
		for i := len(attached) - 1; i >= 0 && missing > 0; i-- {
			if err := c.detach(ctx, attached[i]); err != nil {
				return err
			}
			missing--
		}
		m.gateFrom = now
		c.queue.AddAfter(r.spec.Group, r.spec.interval())
		return nil
	}

	// Drains: attached nodes first, detached ones last; the first alone
	// while no node of the group is up to date.
	if noneUpToDate {
		concurrency = 1
	}
	order := append(attached, isDetachedTodo(todo)...)
	for _, n := range order {
		if len(inFlight) >= concurrency {
			break
		}
		if err := c.startNode(ctx, r, n); err != nil {
			return err
		}
		inFlight = append(inFlight, n)
	}
	return nil
}

func isDetachedTodo(todo []*corev1.Node) []*corev1.Node {
	var out []*corev1.Node
	for _, n := range todo {
		if model.NodeDetached(n) {
			out = append(out, n)
		}
	}
	return out
}

// settings resolves the roll's surge and unavailability: the request's
// values, else the group's, else kops' defaults.
func (c *Controller) settings(r *roll) (Settings, error) {
	surge, unavailable := r.spec.MaxSurge, r.spec.MaxUnavailable
	for _, g := range c.groups {
		if g.Name == r.spec.Group {
			if surge == nil {
				surge = g.MaxSurge
			}
			if unavailable == nil {
				unavailable = g.MaxUnavailable
			}
		}
	}
	numInstances := 0
	for _, n := range r.nodes {
		if !model.NodeDetached(n) {
			numInstances++
		}
	}
	s, err := Resolve(surge, unavailable, max(numInstances, r.spec.Size))
	if err != nil {
		return s, fmt.Errorf("cannot roll group %s: %w", r.spec.Group, err)
	}
	return s, nil
}

// earlierGroupRolling names a group that comes before this one in kops'
// order and is still rolling; this group waits for it.
func (c *Controller) earlierGroupRolling(group, role string) (string, error) {
	mine, err := rank(role)
	if err != nil {
		return "", err
	}
	all, err := c.env.Listers.Nodes.List(labels.Everything())
	if err != nil {
		return "", fmt.Errorf("node roll %s: list the nodes: %w", group, err)
	}
	for _, n := range all {
		g := nodegroup.GroupOf(n)
		if g == group || g == "" {
			continue
		}
		if active, _ := activeRoll([]*corev1.Node{n}); !active {
			continue
		}
		theirs, _ := rank(roleOf(n))
		if theirs < mine || (theirs == mine && g < group) {
			return g, nil
		}
	}
	return "", nil
}

func (c *Controller) memo(group, id string) *memo {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.memos[group]
	if m == nil || m.id != id {
		m = &memo{id: id, draining: map[string]bool{}}
		c.memos[group] = m
	}
	return m
}

func (c *Controller) forget(group string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.memos, group)
}

// validationFailed keeps waiting for the cluster to validate, and fails the
// roll once it has not validated for the validation timeout.
func (c *Controller) validationFailed(ctx context.Context, r *roll, m *memo, now time.Time, when, reason string) error {
	timeout := r.spec.validationTimeout()
	if m.failingSince.IsZero() {
		m.failingSince = now
		if at := failsAt(r); !at.IsZero() && !m.wroteDeadline {
			// Restarted while the cluster did not validate: the wait
			// goes on to the deadline the console shows.
			m.failingSince = at.Add(-timeout)
		}
	}
	if now.Sub(m.failingSince) >= timeout {
		msg := fmt.Sprintf("cluster did not validate within %v %s: %s — the roll stopped (fail on validate); nodes already replaced stay replaced, the rest are untouched", timeout, when, reason)
		c.env.Events.Eventf(r.inRoll[0], corev1.EventTypeWarning, "RollFailed", "Group %s: %s", r.spec.Group, msg)
		return c.setState(ctx, r, model.RollFailed, msg)
	}
	if err := c.recordDeadline(ctx, r, m, m.failingSince.Add(timeout)); err != nil {
		return err
	}
	c.queue.AddAfter(r.spec.Group, min(ValidateTick, m.failingSince.Add(timeout).Sub(now)))
	return nil
}

// setState writes the roll's state and message on every node of the roll,
// reading each node afresh: the sync may have written it already.
func (c *Controller) setState(ctx context.Context, r *roll, state, message string) error {
	for _, n := range r.inRoll {
		err := annotate(ctx, c.env.Client, n.Name, func(ann map[string]string) bool {
			_, deadline := ann[model.RollFailsAtAnnotation]
			deadline = deadline && !model.RollActive(state)
			if _, ok := ann[model.RollAnnotation]; !ok || (ann[model.RollStateAnnotation] == state && ann[model.RollMessageAnnotation] == message && !deadline) {
				return false
			}
			if deadline {
				// A roll that ended has no validation to wait for.
				delete(ann, model.RollFailsAtAnnotation)
			}
			ann[model.RollStateAnnotation] = state
			if message == "" {
				delete(ann, model.RollMessageAnnotation)
			} else {
				ann[model.RollMessageAnnotation] = message
			}
			return true
		})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("node roll %s: record state %s (it is retried): %w", r.spec.Group, state, err)
		}
	}
	r.state = state
	return nil
}

// summary lists nodes by name for messages.
func summary(nodes []string) string {
	if len(nodes) == 0 {
		return "none"
	}
	return strings.Join(nodes, ", ")
}
