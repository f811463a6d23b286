package canary

import (
	"context"
	"fmt"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model"
)

// Controller drives the canaries of the Deployments it sees: it evaluates
// each step's health gates on the new pods, ends timed holds, fails a step
// on a failed gate (holding it, or aborting), and clears the canary once
// the last step's rollout is complete. Its keys are deployments'
// "namespace/name".
type Controller struct {
	env     *control.Env
	queue   control.Queue
	holder  string
	metrics Metrics

	mu sync.Mutex
	// warnings are the Warning events seen about pods, by the pod's
	// "namespace/name" and the event's name: the informer replays them
	// after a restart.
	warnings map[string]map[string]model.CanaryWarning
	// wakes are the times a key is already due to be looked at again: the
	// simulator's queue keeps every delay it is given, so asking again on
	// every pod event would pile timers up.
	wakes map[string]time.Time
}

// New returns a canary controller that drives as holder: a name no other
// running rollscope uses (the embedded cluster's own, or a console's host
// and process). metrics reads the plans' metric gates; nil errs each of
// their measurements, so a gated step fails rather than passes unread.
func New(env *control.Env, holder string, metrics Metrics) *Controller {
	return &Controller{env: env, holder: holder, metrics: metrics, warnings: map[string]map[string]model.CanaryWarning{}, wakes: map[string]time.Time{}}
}

// Name implements control.Controller.
func (c *Controller) Name() string { return "canary-controller" }

// Watches implements control.Controller: a Deployment with a canary, its
// ReplicaSets, their pods and Warning events about those pods queue it.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.queue = q
	onDeployment := func(obj any) {
		if d, ok := control.Deleted[*appsv1.Deployment](obj); ok && model.HasCanaryAnnotations(d) {
			q.Add(control.Key(d))
		}
	}
	onReplicaSet := func(obj any) {
		if rs, ok := control.Deleted[*appsv1.ReplicaSet](obj); ok {
			c.enqueueOwner(rs.Namespace, metav1.GetControllerOfNoCopy(rs))
		}
	}
	onPod := func(obj any) {
		if p, ok := control.Deleted[*corev1.Pod](obj); ok {
			c.enqueuePodOwner(p.Namespace, p.Name, metav1.GetControllerOfNoCopy(p))
		}
	}
	onEvent := func(obj any) {
		e, ok := control.Deleted[*corev1.Event](obj)
		if !ok {
			return
		}
		w, ok := model.CanaryWarningOf(e)
		if !ok {
			return
		}
		pod := e.InvolvedObject.Namespace + "/" + w.Pod
		c.mu.Lock()
		if c.warnings[pod] == nil {
			c.warnings[pod] = map[string]model.CanaryWarning{}
		}
		c.warnings[pod][e.Name] = w
		c.mu.Unlock()
		if p, err := c.env.Listers.Pods.Pods(e.InvolvedObject.Namespace).Get(w.Pod); err == nil {
			c.enqueuePodOwner(p.Namespace, p.Name, metav1.GetControllerOfNoCopy(p))
		}
	}
	both := func(f func(any)) cache.ResourceEventHandlerFuncs {
		return cache.ResourceEventHandlerFuncs{AddFunc: f, UpdateFunc: func(_, n any) { f(n) }, DeleteFunc: f}
	}
	return map[control.Kind]cache.ResourceEventHandler{
		control.Deployments: both(onDeployment),
		control.ReplicaSets: both(onReplicaSet),
		control.Pods:        both(onPod),
		control.Events:      cache.ResourceEventHandlerFuncs{AddFunc: onEvent, UpdateFunc: func(_, n any) { onEvent(n) }},
	}
}

func (c *Controller) enqueuePodOwner(ns, pod string, ref *metav1.OwnerReference) {
	if ref == nil || ref.Kind != "ReplicaSet" || c.noCanary() {
		return
	}
	rs, err := c.env.Listers.ReplicaSets.ReplicaSets(ns).Get(ref.Name)
	if err != nil {
		return
	}
	c.enqueueOwner(ns, metav1.GetControllerOfNoCopy(rs))
}

func (c *Controller) enqueueOwner(ns string, ref *metav1.OwnerReference) {
	if ref == nil || ref.Kind != "Deployment" || c.noCanary() {
		return
	}
	d, err := c.env.Listers.Deployments.Deployments(ns).Get(ref.Name)
	if err != nil || !model.HasCanaryAnnotations(d) {
		return
	}
	c.queue.Add(ns + "/" + ref.Name)
}

// noCanary reports whether no Deployment has canary annotations, in which
// case no pod or ReplicaSet change concerns this controller: nearly always,
// and asked before two lister reads that allocate on every pod write.
func (c *Controller) noCanary() bool {
	return control.NoneIn(c.env.Listers.DeploymentIndex, control.IndexCanaries, control.Canary)
}

// Sync implements control.Controller: one look at one Deployment's canary.
func (c *Controller) Sync(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	d, err := c.env.Listers.Deployments.Deployments(ns).Get(name)
	if err != nil {
		// Only a canary's Deployment is queued, so one gone from the
		// cache was deleted, its canary ended — or, on a console, only
		// its label was taken off: the API tells which.
		return relabel(ctx, c.env, ns, name)
	}
	if !model.HasCanaryAnnotations(d) {
		return nil
	}
	now := c.env.Clock.Now()
	cn, ok, err := model.ReadCanary(d)
	if err != nil || !ok {
		// Annotations no canary can be read from, or a state without its
		// plan: drop them, and put nothing back — there is no plan to say
		// what was replaced.
		if err != nil {
			c.env.Events.Eventf(d, corev1.EventTypeWarning, "CanaryUnreadable", "Dropped unreadable canary annotations: %v", err)
		}
		return c.write(ctx, end(d, cn, false))
	}
	if !model.CanaryCurrent(d, cn) {
		return c.stale(ctx, d, cn)
	}
	if cn.Lease.HeldByOther(c.holder, now) {
		// Another rollscope drives it; take over if its lease lapses.
		c.wake(key, now, cn.Lease.Renewed.Add(model.CanaryLeaseDuration).Sub(now)+time.Millisecond)
		return nil
	}
	renew := cn.Lease.Holder != c.holder || now.Sub(cn.Lease.Renewed) >= model.CanaryLeaseRenew
	cn.Lease = model.CanaryLease{Holder: c.holder, Renewed: now}
	rss := c.owned(d)

	switch cn.State.Phase {
	case model.CanaryRolling:
		if d.Status.ObservedGeneration >= d.Generation && model.DeploymentComplete(d, &d.Status) {
			c.env.Events.Eventf(d, corev1.EventTypeNormal, "CanaryFinished", "Canary finished: %s on all %d pods, strategy restored", cn.Plan.Change, model.DesiredReplicas(d))
			return c.write(ctx, end(d, cn, false))
		}
	case model.CanaryHolding:
		g := c.gates(d, rss, cn, now)
		if cn.Gated() && g.Healthy {
			changed, at, again := c.analyse(ctx, d, rss, &cn, now)
			if again {
				c.wake(key, now, max(at.Sub(now), time.Millisecond))
			}
			renew = renew || changed
		}
		next, after := model.DecideCanary(cn, g, now)
		switch next {
		case model.CanaryAdvance:
			hold, _ := cn.Plan.Step(cn.State.Step).HoldFor()
			c.env.Events.Eventf(d, corev1.EventTypeNormal, "CanaryPromoted", "Canary step %d of %d held %s with its gates ok: step %d", cn.State.Step, cn.Plan.Last(), hold, cn.State.Step+1)
			return c.write(ctx, advance(d, cn, cn.State.Step+1, now))
		case model.CanaryFail:
			if g.Failed == "" {
				g.Failed = "analysis " + model.GateEvidence(cn.Plan.Gates, cn.State.Analysis)
			}
			return c.failed(ctx, d, rss, cn, g.Failed)
		case model.CanaryHoldInconclusive:
			why := model.GateHold(cn.Plan.Gates, cn.State.Analysis)
			c.env.Events.Eventf(d, corev1.EventTypeWarning, "CanaryInconclusive", "Canary step %d of %d: %s — holding for you (promote or abort)", cn.State.Step, cn.Plan.Last(), why)
			return c.write(ctx, hold(d, cn, model.CanaryInconclusive, why))
		}
		if after > 0 {
			c.wake(key, now, after)
		}
	}
	if renew {
		u := d.DeepCopy()
		cn.Write(&u.ObjectMeta)
		if err := c.write(ctx, u); err != nil {
			return err
		}
	}
	c.wake(key, now, model.CanaryLeaseRenew)
	return nil
}

// wake looks at key again after d, unless it is already due by then.
func (c *Controller) wake(key string, now time.Time, d time.Duration) {
	at := now.Add(d)
	c.mu.Lock()
	due, ok := c.wakes[key]
	if ok && !due.Before(now) && !due.After(at) {
		c.mu.Unlock()
		return
	}
	c.wakes[key] = at
	c.mu.Unlock()
	c.queue.AddAfter(key, d)
}

// failed acts on a failed gate: hold the step and say so, or abort.
func (c *Controller) failed(ctx context.Context, d *appsv1.Deployment, rss []*appsv1.ReplicaSet, cn model.Canary, gate string) error {
	step := fmt.Sprintf("step %d of %d", cn.State.Step, cn.Plan.Last())
	if cn.Plan.OnFailure == model.CanaryOnFailureAbort {
		u, done, err := rollBack(d, rss, cn)
		if err != nil {
			c.env.Events.Eventf(d, corev1.EventTypeWarning, "CanaryGateFailed", "Canary %s failed its gate (%s) and cannot abort: %v — holding", step, gate, err)
			return c.write(ctx, fail(d, cn, gate))
		}
		c.env.Events.Eventf(d, corev1.EventTypeWarning, "CanaryGateFailed", "Canary %s failed its gate: %s — aborting: %s", step, gate, done)
		return c.write(ctx, u)
	}
	c.env.Events.Eventf(d, corev1.EventTypeWarning, "CanaryGateFailed", "Canary %s failed its gate: %s — holding (promote or abort)", step, gate)
	return c.write(ctx, fail(d, cn, gate))
}

// stale handles annotations that no longer describe d: a copy an earlier
// canary left on a ReplicaSet that a rollback brought back, or a canary
// whose template someone else changed mid-step. The latter still carries
// the hold: the Deployment's own settings go back, or its new pods would
// never become available.
func (c *Controller) stale(ctx context.Context, d *appsv1.Deployment, cn model.Canary) error {
	if model.CanaryHeld(d) {
		c.env.Events.Eventf(d, corev1.EventTypeWarning, "CanaryEnded", "Canary ended: the template changed under it; strategy, minReadySeconds and progressDeadlineSeconds restored")
	}
	return c.write(ctx, endStale(d, cn))
}

// endStale is d as the controller leaves a canary that no longer describes
// it: the annotations dropped and, if d still carries the hold, its own
// settings back.
func endStale(d *appsv1.Deployment, cn model.Canary) *appsv1.Deployment {
	return end(d, cn, model.CanaryHeld(d))
}

// EndStale is d as the controller leaves it once it sees that d's canary
// no longer describes it (someone else changed the template of a held
// Deployment: set image, undo, restart), and whether that applies to d at
// all. A forecast plays it after its change, as the cluster's controller
// would, so that it rehearses the Deployment's own strategy rather than
// the hold's.
func EndStale(d *appsv1.Deployment) (*appsv1.Deployment, bool) {
	cn, ok, err := model.ReadCanary(d)
	if err != nil || !ok || model.CanaryCurrent(d, cn) {
		return nil, false
	}
	return endStale(d, cn), true
}

// gates evaluates the current step on the new ReplicaSet's pods.
func (c *Controller) gates(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, cn model.Canary, now time.Time) model.CanaryGates {
	var pods []model.CanaryPod
	var warnings []model.CanaryWarning
	if newRS := model.FindNewReplicaSet(d, rss); newRS != nil {
		objs, _ := c.env.Listers.PodIndex.ByIndex(control.IndexByController, string(newRS.UID))
		c.mu.Lock()
		for _, o := range objs {
			p, ok := o.(*corev1.Pod)
			if !ok || p.Namespace != d.Namespace || !model.IsPodActive(p) {
				continue
			}
			pods = append(pods, model.CanaryPodOf(p))
			for _, w := range c.warnings[p.Namespace+"/"+p.Name] {
				warnings = append(warnings, w)
			}
		}
		c.mu.Unlock()
	}
	deadline, has := cn.Plan.Original.Deadline()
	return model.EvaluateCanaryGates(cn.Plan.Step(cn.State.Step).Pods, cn.State.Since, deadline, has, pods, warnings, now)
}

func (c *Controller) owned(d *appsv1.Deployment) []*appsv1.ReplicaSet {
	objs, _ := c.env.Listers.ReplicaSetIndex.ByIndex(control.IndexByController, string(d.UID))
	out := make([]*appsv1.ReplicaSet, 0, len(objs))
	for _, o := range objs {
		if rs, ok := o.(*appsv1.ReplicaSet); ok {
			out = append(out, rs)
		}
	}
	return out
}

// write updates the Deployment with the resourceVersion the cache had; a
// conflict means a newer version is on its way, which queues it again.
func (c *Controller) write(ctx context.Context, u *appsv1.Deployment) error {
	_, err := c.env.Client.AppsV1().Deployments(u.Namespace).Update(ctx, u, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil
	}
	if apierrors.IsForbidden(err) {
		// A user who may not update the Deployment only watches its
		// canary: one who may drives it. Look again once a lease would
		// have lapsed, rather than retrying at once.
		c.wake(control.Key(u), c.env.Clock.Now(), model.CanaryLeaseDuration)
		return nil
	}
	if err != nil {
		return fmt.Errorf("canary of deployment/%s: %w", u.Name, err)
	}
	return nil
}
