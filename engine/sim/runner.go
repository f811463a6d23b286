// Package sim drives rollscope's embedded controllers on a virtual clock.
//
// The runner feeds each controller's listers from the embedded API's commit
// stream and runs one Sync at a time, round-robin over the controllers, so
// that the same scenario and seed always produce the same sequence of API
// writes, and hence the same trace. Client-go's informers would deliver on
// goroutines of their own, and two runs would interleave differently; the
// controllers do not know which runner drives them (engine/control).
//
// # Caches
//
// Each kind's cache is a cache.Indexer of the runner's own (store.go) that
// answers as client-go's does, at less cost per change: a held key is
// looked up without building a string, each object keeps the index values
// it was filed under, and an index with one value per object is asked
// through control.SingleValue. Events, which no lister reads, are kept by
// name only (events.go) when the source hands each change the object it
// replaced (ChangeSource: memapi's SubscribeChanges), which is what an
// update's handler gets; any other source gets a cache of packed events
// (model/eventpack).
//
// # Time
//
// Every delay (control.Queue's AddAfter) is one timer in one heap on the
// virtual Clock. Run, at full speed (`simulate`), jumps from timer to
// timer. RunRealtime, in the console, follows real time × speed, but the
// clock never passes a timer the run has not fired (Clock holds there): a
// runner behind real time slows virtual time rather than skipping
// controller turns, so turns and scripted actions land at the same virtual
// times as at full speed. Controls is the console's handle on that clock
// (+, - and space).
package sim

import (
	"context"
	"fmt"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// Source is the embedded API's commit stream: fn is called inside every
// committed write, in commit order, with the stored object.
type Source interface {
	Subscribe(fn func(watch.Event)) (cancel func())
}

// ChangeSource is a Source that also hands each change the stored object it
// replaced (nil for an Added one), as the embedded API can: the runner then
// keeps no copy of the events, only their names (see eventCache).
type ChangeSource interface {
	SubscribeChanges(fn func(ev watch.Event, prev runtime.Object)) (cancel func())
}

// Observer sees every change after the controllers' caches have it, in
// commit order, stamped with the virtual time it was applied at.
type Observer func(now time.Time, ev watch.Event)

// ChangeObserver is an Observer also handed the version of the object the
// change replaced in the controllers' caches: nil for an Added or Deleted
// change, and for events, which the runner keeps only by name.
type ChangeObserver func(now time.Time, ev watch.Event, prev runtime.Object)

// Runner is the deterministic controller runner of the embedded cluster.
type Runner struct {
	client kubernetes.Interface
	clock  *Clock
	start  time.Time
	seed   int64

	mu     sync.Mutex // guards inbox: writers may be on any goroutine
	inbox  []received
	spare  []received // the inbox drain last emptied, reused as the next inbox
	wake   chan struct{}
	cancel func()

	stores    map[control.Kind]*store // every kind but events
	events    *eventCache
	listers   control.Listers
	handlers  map[control.Kind][]cache.ResourceEventHandler
	observers []ChangeObserver
	ctrls     []*controllerState
	next      int // round-robin position among controllers
	timers    timerHeap
	// spareTimers are fired controller timers, reused: the kubelet sets
	// one for each step of every pod.
	spareTimers []*timer
	seq         uint64
	scripted    int // scripted timers not yet fired

	// SyncErrors receives controller errors after retries are exhausted;
	// nil drops them.
	SyncErrors func(controller, key string, err error)
	// Window is how often, at most, a controller takes its turn, in virtual
	// time. Changes that arrive within a window are handled in one batch, as
	// the latency of a real API server and informers batches them; a
	// level-triggered controller reaches the same decisions either way.
	Window time.Duration
}

// New returns a runner for the cluster behind client, fed by src. Create it
// before any object exists, so that its caches see every change.
func New(client kubernetes.Interface, src Source, clock *Clock, seed int64) *Runner {
	r := &Runner{
		client:   client,
		clock:    clock,
		start:    clock.Now(),
		seed:     seed,
		wake:     make(chan struct{}, 1),
		stores:   map[control.Kind]*store{},
		handlers: map[control.Kind][]cache.ResourceEventHandler{},
	}
	// Until a realtime run takes over, the clock does not flow past where
	// the runner stands, whatever its speed: a clock set flowing before
	// RunRealtime has started would otherwise pass every timer due in
	// between — at 1e9× real time, twenty minutes in a microsecond, each
	// scripted action and --until's end then done at one instant.
	clock.holdFor(r, clock.Now())
	for _, k := range control.AllKinds {
		if k != control.Events { // no lister reads events: see eventCache
			r.stores[k] = newStore(control.Indexers(k))
		}
	}
	cs, replaced := src.(ChangeSource)
	r.events = newEventCache(replaced)
	r.listers = control.Listers{
		Pods:                   corelisters.NewPodLister(r.stores[control.Pods]),
		Nodes:                  corelisters.NewNodeLister(r.stores[control.Nodes]),
		Deployments:            appslisters.NewDeploymentLister(r.stores[control.Deployments]),
		ReplicaSets:            appslisters.NewReplicaSetLister(r.stores[control.ReplicaSets]),
		ReplicationControllers: corelisters.NewReplicationControllerLister(r.stores[control.ReplicationControllers]),
		PodDisruptionBudgets:   policylisters.NewPodDisruptionBudgetLister(r.stores[control.PodDisruptionBudgets]),
		Workloads:              map[kind.Kind]cache.Indexer{},
		ControllerRevisions:    appslisters.NewControllerRevisionLister(r.stores[control.ControllerRevisions]),
		PodIndex:               r.stores[control.Pods],
		ReplicaSetIndex:        r.stores[control.ReplicaSets],
		RCIndex:                r.stores[control.ReplicationControllers],
		RevisionIndex:          r.stores[control.ControllerRevisions],
		DeploymentIndex:        r.stores[control.Deployments],
		BudgetIndex:            r.stores[control.PodDisruptionBudgets],
		AnalysisRuns:           r.stores[control.AnalysisRuns],
	}
	for _, e := range kind.All() {
		r.listers.Workloads[e.Kind] = r.stores[control.Workload(e.Kind)]
	}
	if replaced {
		r.cancel = cs.SubscribeChanges(r.receiveChange)
	} else {
		r.cancel = src.Subscribe(r.receive)
	}
	return r
}

// Close stops receiving changes from the cluster.
func (r *Runner) Close() { r.cancel() }

// Clock is the runner's virtual clock.
func (r *Runner) Clock() *Clock { return r.clock }

// Start is the virtual time the runner was created at.
func (r *Runner) Start() time.Time { return r.start }

// Listers are the runner's caches, for observers and tests.
func (r *Runner) Listers() control.Listers { return r.listers }

// Env builds the environment for a controller named name: its own seeded
// random source and an event recorder that writes through the API.
func (r *Runner) Env(name string) *control.Env {
	var dyn dynamic.Interface
	if d, ok := r.client.(interface{ Dynamic() dynamic.Interface }); ok {
		dyn = d.Dynamic()
	}
	return &control.Env{
		Client:  r.client,
		Dynamic: dyn,
		Listers: r.listers,
		Clock:   r.clock,
		Events:  &control.APIRecorder{Client: r.client, Clock: r.clock, Component: name},
		Rand:    control.RandFor(r.seed, name),
	}
}

// Add registers a controller. Controllers run round-robin in the order added.
func (r *Runner) Add(c control.Controller) {
	st := &controllerState{ctrl: c, runner: r, queued: map[string]bool{}, failures: map[string]int{}}
	for _, k := range control.AllKinds {
		if h, ok := c.Watches(st)[k]; ok && h != nil {
			r.handlers[k] = append(r.handlers[k], h)
		}
	}
	r.ctrls = append(r.ctrls, st)
}

// Observe registers an observer of every applied change.
func (r *Runner) Observe(o Observer) {
	r.ObserveChanges(func(now time.Time, ev watch.Event, _ runtime.Object) { o(now, ev) })
}

// ObserveChanges registers an observer of every applied change and of the
// version it replaced.
func (r *Runner) ObserveChanges(o ChangeObserver) { r.observers = append(r.observers, o) }

// At runs fn on the runner's goroutine when the virtual clock reaches
// Start()+d. Scripted actions use it, so they interleave reproducibly.
func (r *Runner) At(d time.Duration, fn func()) {
	r.scripted++
	r.addTimer(&timer{at: r.start.Add(d), fn: func() { r.scripted--; fn() }})
}

// Do runs fn on the runner's goroutine at the current virtual time. It is how
// another goroutine (the console) acts on a realtime runner.
func (r *Runner) Do(fn func()) {
	r.mu.Lock()
	r.addTimerLocked(&timer{at: r.clock.Now(), fn: fn})
	r.mu.Unlock()
	r.poke()
}

func (r *Runner) addTimer(t *timer) {
	r.mu.Lock()
	r.addTimerLocked(t)
	r.mu.Unlock()
}

// addKeyTimer sets a controller timer: ctrl's turn at at (key ""), or key
// enqueued at at.
func (r *Runner) addKeyTimer(at time.Time, ctrl *controllerState, key string) {
	r.mu.Lock()
	var t *timer
	if n := len(r.spareTimers); n > 0 {
		t, r.spareTimers = r.spareTimers[n-1], r.spareTimers[:n-1]
	} else {
		t = &timer{}
	}
	t.at, t.ctrl, t.key = at, ctrl, key
	r.addTimerLocked(t)
	r.mu.Unlock()
}

func (r *Runner) addTimerLocked(t *timer) {
	r.seq++
	t.seq = r.seq
	r.timers.push(t)
}

// received is a change as the inbox holds it: prev, what it replaced, is
// kept only for an event (ChangeSource).
type received struct {
	watch.Event
	prev runtime.Object
}

// receive is called inside the cluster's writes, on the writer's goroutine.
func (r *Runner) receive(ev watch.Event) {
	r.mu.Lock()
	r.inbox = append(r.inbox, received{Event: ev})
	r.mu.Unlock()
	r.poke()
}

// receiveChange is receive for a ChangeSource.
func (r *Runner) receiveChange(ev watch.Event, prev runtime.Object) {
	if _, ok := ev.Object.(*corev1.Event); !ok {
		prev = nil // the other kinds' caches hold what a change replaced
	}
	r.mu.Lock()
	r.inbox = append(r.inbox, received{Event: ev, prev: prev})
	r.mu.Unlock()
	r.poke()
}

func (r *Runner) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// drain applies every received change to the caches, the controllers'
// handlers and the observers, in commit order.
func (r *Runner) drain() {
	for {
		r.mu.Lock()
		evs := r.inbox
		r.inbox, r.spare = r.spare, nil
		r.mu.Unlock()
		if len(evs) == 0 {
			return
		}
		now := r.clock.Now()
		for _, ev := range evs {
			r.apply(now, ev)
		}
		// Two buffers take turns, so a full-speed run does not grow a new
		// inbox for every batch of writes.
		clear(evs) // hold on to no object
		r.mu.Lock()
		r.spare = evs[:0]
		r.mu.Unlock()
	}
}

func (r *Runner) apply(now time.Time, rc received) {
	ev := rc.Event
	var replaced runtime.Object
	kind, ok := KindOf(ev.Object)
	if kind == control.Events {
		r.applyEvent(rc)
	} else if ok {
		st := r.stores[kind]
		hs := r.handlers[kind]
		obj := cached(ev.Object)
		if obj == nil {
			return // a Rollout that does not decode: no controller can read it
		}
		switch ev.Type {
		case watch.Added, watch.Modified:
			old, exists, _ := st.put(obj)
			if exists {
				replaced, _ = old.(runtime.Object)
			}
			for _, h := range hs {
				if exists {
					h.OnUpdate(old, obj)
				} else {
					h.OnAdd(obj, false)
				}
			}
		case watch.Deleted:
			_, _ = st.remove(obj)
			for _, h := range hs {
				h.OnDelete(obj)
			}
		}
	}
	for _, o := range r.observers {
		o(now, ev, replaced)
	}
}

// applyEvent is apply's caching and handling of an event.
func (r *Runner) applyEvent(rc received) {
	ev := rc.Event
	e := ev.Object.(*corev1.Event)
	hs := r.handlers[control.Events]
	switch ev.Type {
	case watch.Added, watch.Modified:
		old, exists := r.events.put(e, rc.prev)
		if !exists {
			for _, h := range hs {
				h.OnAdd(e, false)
			}
			return
		}
		if len(hs) == 0 {
			return // the replaced event is read back only for a handler
		}
		prev := old.read()
		for _, h := range hs {
			h.OnUpdate(prev, e)
		}
	case watch.Deleted:
		r.events.remove(e)
		for _, h := range hs {
			h.OnDelete(e)
		}
	}
}

// cached is what the caches hold of obj: obj itself, or for a Rollout or
// an AnalysisRun, which the API serves as unstructured JSON, its decoding
// into model/argo's type (nil when it does not decode).
func cached(obj runtime.Object) runtime.Object {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj
	}
	if u.GetKind() == "AnalysisRun" {
		run, err := argo.AnalysisRunOf(u)
		if err != nil {
			return nil
		}
		return run
	}
	ro, err := argo.RolloutOf(u)
	if err != nil {
		return nil
	}
	return ro
}

// KindOf maps an object to the kind the controllers know it by.
func KindOf(obj runtime.Object) (control.Kind, bool) {
	if w, ok := kind.Of(obj); ok {
		return control.Workload(w.Kind()), true
	}
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		switch o.GroupVersionKind() {
		case argo.GroupVersion.WithKind("Rollout"):
			return control.Workload(kind.Rollout), true
		case argo.GroupVersion.WithKind("AnalysisRun"):
			return control.AnalysisRuns, true
		}
	case *corev1.Pod:
		return control.Pods, true
	case *corev1.Node:
		return control.Nodes, true
	case *appsv1.ReplicaSet:
		return control.ReplicaSets, true
	case *policyv1.PodDisruptionBudget:
		return control.PodDisruptionBudgets, true
	case *appsv1.ControllerRevision:
		return control.ControllerRevisions, true
	case *corev1.Event:
		return control.Events, true
	}
	return "", false
}

// step gives the next controller with work its turn: it syncs every key that
// was queued when the turn began, then passes the turn on. Taking turns a
// queue at a time, rather than a key at a time, lets changes coalesce the way
// informer lag coalesces them in a real controller manager: a ReplicaSet
// syncs once after a batch of its pods changed, not once per pod. It reports
// false when every queue is empty.
func (r *Runner) step(ctx context.Context) bool {
	now := r.clock.Now()
	for i := 0; i < len(r.ctrls); i++ {
		st := r.ctrls[(r.next+i)%len(r.ctrls)]
		if !st.ready(now) {
			continue
		}
		r.next = (r.next + i + 1) % len(r.ctrls)
		st.nextTurn = now.Add(r.Window)
		defer st.wakeAtTurn()
		for n := st.len(); n > 0 && ctx.Err() == nil; n-- {
			key, ok := st.pop()
			if !ok {
				break
			}
			st.syncs++
			if err := st.ctrl.Sync(ctx, key); err != nil {
				if !st.retry(key) && r.SyncErrors != nil {
					r.SyncErrors(st.ctrl.Name(), key, err)
				}
			} else {
				delete(st.failures, key)
			}
			r.drain()
		}
		return true
	}
	return false
}

// settle runs every sync that is ready at the current instant, including
// timers that are due, until nothing is left to do now.
func (r *Runner) settle(ctx context.Context) {
	for ctx.Err() == nil {
		r.drain()
		if r.step(ctx) {
			continue
		}
		if !r.fireDue() {
			return
		}
	}
}

// fireDue fires every timer due at or before now. It reports whether any fired.
func (r *Runner) fireDue() bool {
	now := r.clock.Now()
	fired := false
	for {
		r.mu.Lock()
		t := r.timers.peek()
		if t == nil || t.at.After(now) {
			r.mu.Unlock()
			return fired
		}
		r.timers.pop()
		r.mu.Unlock()
		fired = true
		switch {
		case t.fn != nil:
			t.fn()
			r.drain()
		case t.key == "":
			// The controller's turn has come. It may already have taken it
			// early (another timer at the same instant ran settle first) and
			// have work again for a later turn: re-arm in that case.
			t.ctrl.waking = false
			t.ctrl.wakeAtTurn()
		default:
			t.ctrl.Add(t.key)
		}
		if t.fn == nil {
			r.mu.Lock()
			*t = timer{}
			r.spareTimers = append(r.spareTimers, t)
			r.mu.Unlock()
		}
	}
}

func (r *Runner) nextTimer() (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t := r.timers.peek(); t != nil {
		return t.at, true
	}
	return time.Time{}, false
}

// End reasons of a full-speed run.
const (
	EndQuiescent = "quiescent" // nothing left to do, or every rollout finished or failed
	EndUntil     = "until"     // the --until limit was reached
	EndLimit     = "limit"     // the safety limit on virtual time was reached
	EndCanceled  = "canceled"
)

// RunOptions bound a full-speed run.
type RunOptions struct {
	// Until stops the run at Start()+Until; 0 means no limit.
	Until time.Duration
	// Limit is a safety cap on virtual time (default 48h).
	Limit time.Duration
	// Finished reports whether every rollout has finished or failed; when it
	// does and no scripted action is left, the run ends even if timers remain
	// (a crash-looping pod restarts forever).
	Finished func() bool
}

// Run advances virtual time as fast as possible, from one timer to the next,
// until the cluster is quiescent. The clock must be stopped (speed 0).
func (r *Runner) Run(ctx context.Context, o RunOptions) (string, error) {
	return RunAll(ctx, []*Runner{r}, o)
}

// RunAll is Run for several clusters' runners on one clock: at each
// instant each does what is due, in turn, and the clock goes on to the
// earliest of their next timers. o.Finished is about them all.
func RunAll(ctx context.Context, rs []*Runner, o RunOptions) (string, error) {
	clock, start := rs[0].clock, rs[0].start
	if clock.Speed() != 0 {
		return "", fmt.Errorf("the simulation clock is running in real time; stop it before a full-speed run")
	}
	if o.Limit <= 0 {
		o.Limit = 48 * time.Hour
	}
	for {
		for _, r := range rs {
			r.settle(ctx)
		}
		if ctx.Err() != nil {
			return EndCanceled, ctx.Err()
		}
		var at time.Time
		ok, scripted := false, 0
		for _, r := range rs {
			if t, has := r.nextTimer(); has && (!ok || t.Before(at)) {
				at, ok = t, true
			}
			scripted += r.scripted
		}
		if !ok {
			return EndQuiescent, nil
		}
		if scripted == 0 && o.Finished != nil && o.Finished() {
			return EndQuiescent, nil
		}
		if o.Until > 0 && at.After(start.Add(o.Until)) {
			clock.advanceTo(start.Add(o.Until))
			return EndUntil, nil
		}
		if at.After(start.Add(o.Limit)) {
			clock.advanceTo(start.Add(o.Limit))
			return EndLimit, nil
		}
		clock.advanceTo(at)
	}
}

// RunRealtime follows the clock as it flows (speed × real time) until ctx is
// done. Changes made by other goroutines wake it at once.
//
// Virtual time never passes a timer the run has not fired: the clock waits
// at it (Clock.holdAt) while the run catches up, so under load the clock
// flows slower than speed × real time, and every controller turn and
// scripted action happens at the virtual time it would at full speed.
func (r *Runner) RunRealtime(ctx context.Context) {
	// Once the run stops, so does virtual time: nothing would do what
	// comes due (a plain run's last stamps are at --until, not after).
	defer func() { r.clock.holdFor(r, r.clock.Now()) }()
	for {
		// What is due now is done at one instant, as at full speed.
		r.clock.holdFor(r, r.clock.Now())
		r.settle(ctx)
		if ctx.Err() != nil {
			return // before the clock may flow on to the next timer
		}
		var wait <-chan time.Time
		var t *time.Timer
		if at, ok := r.nextTimer(); ok {
			r.clock.holdFor(r, at)
			if d, flowing := r.clock.realDelay(at); flowing {
				t = time.NewTimer(d)
				wait = t.C
			}
		} else {
			r.clock.releaseFor(r)
		}
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-wait:
		}
		if t != nil {
			t.Stop()
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// Syncs reports how many syncs each controller has run, by name.
func (r *Runner) Syncs() map[string]int {
	out := make(map[string]int, len(r.ctrls))
	for _, st := range r.ctrls {
		out[st.ctrl.Name()] += st.syncs
	}
	return out
}

// Poke wakes a realtime run, for example after the clock's speed changed.
func (r *Runner) Poke() { r.poke() }
