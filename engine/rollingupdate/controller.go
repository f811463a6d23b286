package rollingupdate

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// Controller runs updates requested by the RequestAnnotation on a
// ReplicationController, one step per Sync, waiting on the runner's clock.
// It keeps no state of its own beyond what it printed: a new Controller
// continues any update from the objects.
type Controller struct {
	env *control.Env
	// Progress, when set, is told kubectl's progress lines as they happen.
	Progress func(namespace, line string)
	// Failed, when set, is told an update that cannot go on (bad request).
	Failed func(namespace, name string, err error)

	queue    control.Queue
	mu       sync.Mutex
	sessions map[string]*Session
	// due is when each update's next step is due. Every change to the
	// controllers wakes Sync, and without it a step would follow the last
	// one at once instead of after the update period.
	due map[string]time.Time
}

// NewController returns the rolling-update controller for env.
func NewController(env *control.Env) *Controller {
	return &Controller{env: env, sessions: map[string]*Session{}, due: map[string]time.Time{}}
}

// Name is the component name.
func (c *Controller) Name() string { return "rolling-update" }

// Watches enqueues every ReplicationController that takes part in an update.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.queue = q
	enqueue := func(obj any) {
		rc, ok := obj.(*corev1.ReplicationController)
		if !ok || !takesPart(rc) {
			return
		}
		q.Add(rc.Namespace + "/" + rc.Name)
	}
	return map[control.Kind]cache.ResourceEventHandler{
		control.ReplicationControllers: cache.ResourceEventHandlerFuncs{
			AddFunc:    enqueue,
			UpdateFunc: func(_, cur any) { enqueue(cur) },
		},
	}
}

// driverName is what Controller writes to DriverAnnotation.
const driverName = "controller"

// takesPart reports whether rc is part of an update this controller drives:
// it carries a request, or it is the next controller of one.
func takesPart(rc *corev1.ReplicationController) bool {
	_, req := rc.Annotations[RequestAnnotation]
	return req || rc.Annotations[DriverAnnotation] == driverName
}

// Sync takes one step of the update rc key takes part in and schedules the
// next step for both controllers (either may be the one that remains).
func (c *Controller) Sync(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return fmt.Errorf("rolling update: bad key %q: %w", key, err)
	}
	u := &Updater{Client: c.env.Client, Namespace: ns, Now: c.env.Clock.Now}
	rc, err := u.get(ctx, name)
	if err != nil || rc == nil {
		return err
	}
	req, ok, err := c.request(ctx, u, rc)
	if err != nil {
		c.fail(ns, name, err)
		c.record(rc, corev1.EventTypeWarning, "RollingUpdateFailed", err.Error())
		return nil
	}
	if !ok {
		return nil
	}
	req.Driver = driverName
	key = ns + "/" + req.Old
	// An abort does not wait out the period the update was waiting.
	dueKey := key
	if req.Rollback {
		dueKey += " rollback"
	}
	if wait := c.wait(dueKey); wait > 0 {
		if c.queue != nil {
			c.queue.AddAfter(key, wait)
		}
		return nil
	}
	s := c.session(key)
	out, err := u.Step(ctx, req, s)
	for _, l := range out.Lines {
		line := strings.TrimSuffix(l, "\n")
		// The lines are events on the controller too, so that whoever
		// watches the cluster (the console) sees the update's progress.
		c.record(rc, corev1.EventTypeNormal, "RollingUpdate", line)
		if c.Progress != nil {
			c.Progress(ns, line)
		}
	}
	if IsBadRequest(err) || IsNotThere(err) {
		c.fail(ns, req.Old, err)
		c.record(rc, corev1.EventTypeWarning, "RollingUpdateFailed", err.Error())
		return nil
	}
	if err != nil {
		return err
	}
	if out.Done {
		c.mu.Lock()
		delete(c.sessions, key)
		delete(c.due, key)
		delete(c.due, key+" rollback")
		c.mu.Unlock()
		return nil
	}
	c.mu.Lock()
	c.due[dueKey] = c.env.Clock.Now().Add(out.Wait)
	c.mu.Unlock()
	if c.queue != nil {
		c.queue.AddAfter(key, out.Wait)
		if out.Next != "" {
			c.queue.AddAfter(ns+"/"+out.Next, out.Wait)
		}
	}
	return nil
}

// request is the update rc takes part in: its own request, or, for a next
// controller, the request on its source or one rebuilt from its annotations.
func (c *Controller) request(ctx context.Context, u *Updater, rc *corev1.ReplicationController) (Request, bool, error) {
	if v, ok := rc.Annotations[RequestAnnotation]; ok {
		r, err := ParseRequest(rc.Name, v)
		return r, err == nil, err
	}
	if !takesPart(rc) {
		return Request{}, false, nil
	}
	if _, ok := rc.Annotations[RenamingAnnotation]; ok {
		return Request{Old: rc.Name}, true, nil
	}
	source := rc.Annotations[RenameAnnotation]
	if src, ok := rc.Annotations[SourceAnnotation]; ok {
		source, _, _ = strings.Cut(src, ":")
	}
	if source == "" {
		return Request{}, false, nil
	}
	old, err := u.get(ctx, source)
	if err != nil {
		return Request{}, false, err
	}
	if old != nil {
		if v, ok := old.Annotations[RequestAnnotation]; ok {
			r, err := ParseRequest(old.Name, v)
			return r, err == nil, err
		}
	}
	return Request{Old: source, Next: rc.Name}, true, nil
}

// wait is how long the update of key has yet to wait for its next step.
func (c *Controller) wait(key string) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	due, ok := c.due[key]
	if !ok {
		return 0
	}
	return due.Sub(c.env.Clock.Now())
}

func (c *Controller) session(key string) *Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.sessions[key]
	if !ok {
		s = &Session{}
		c.sessions[key] = s
	}
	return s
}

// record posts an event about rc when the runner gave the controller a
// recorder.
func (c *Controller) record(rc *corev1.ReplicationController, eventType, reason, message string) {
	if c.env.Events != nil {
		c.env.Events.Eventf(rc, eventType, reason, "%s", message)
	}
}

func (c *Controller) fail(ns, name string, err error) {
	if c.Failed != nil {
		c.Failed(ns, name, err)
	}
}
