package live

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/control"
	"rollscope/engine/play"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/objects"
)

// actionTimeout bounds one scripted action: an API server that does not
// answer fails the action (its line says why) rather than the run.
const actionTimeout = 30 * time.Second

// Begin starts the run's clock and the observer, and creates the scenario's
// objects in the run's namespace: time 0 of the trace. An error means the
// API refused one of them; nothing has been played.
func (r *Run) Begin(ctx context.Context) error {
	r.mu.Lock()
	r.start = time.Now()
	r.mu.Unlock()
	if err := r.runner.Observe(r.observe); err != nil {
		return err
	}
	if r.nodesStarted {
		if err := r.observeNodeEvents(r.runCtx); err != nil {
			return err
		}
	}
	var pin *corev1.Taint
	if r.sim.HollowNodes {
		t := r.names.taint()
		pin = &t
	}
	objs := runObjects(r.sim.Scenario.Objects, r.Namespace, pin)
	return play.CreateAll(ctx, r.client, r.sim.Scenario.Name, objs)
}

// at is the run's time of a wall-clock instant, counted from Epoch.
func (r *Run) at(now time.Time) time.Time { return r.sim.Epoch.Add(now.Sub(r.start)) }

// observe hands one change to the simulation's observer, until the run has
// ended. The time is taken under the lock so that lines never go back in time.
func (r *Run) observe(_ time.Time, ev watch.Event) {
	ev, ok := r.names.forTrace(ev)
	if !ok || r.sim.Observe == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ended {
		r.sim.Observe(r.at(time.Now()), ev)
	}
}

// Play runs the scenario's actions at their times until every rollout has
// finished and no action is left (sim.EndQuiescent), until Until has
// passed (sim.EndUntil), or until ctx ends (sim.EndCanceled, with ctx's
// error). It returns the reason and the run's time of the end; nothing is
// observed after it returns.
func (r *Run) Play(ctx context.Context) (reason string, at time.Time, err error) {
	player := r.player()
	actions := r.sim.Scenario.Actions
	next := 0
	lastAction := r.start
	var finishedSince time.Time
	var h health
	for {
		r.probe(ctx, &h)
		for next < len(actions) && time.Since(r.start) >= actions[next].At {
			a := actions[next]
			next++
			actx, cancel := context.WithTimeout(ctx, actionTimeout)
			target, result := player.Run(actx, a)
			cancel()
			if ctx.Err() != nil {
				break
			}
			if r.sim.OnAction != nil {
				r.sim.OnAction(r.at(time.Now()), a.Kind, target, result)
			}
			lastAction = time.Now()
		}
		if ctx.Err() != nil {
			return r.end(sim.EndCanceled), r.at(time.Now()), ctx.Err()
		}
		if r.sim.Until > 0 && time.Since(r.start) >= r.sim.Until {
			return r.end(sim.EndUntil), r.sim.Epoch.Add(r.sim.Until), r.exitStatus()
		}
		if next == len(actions) && time.Since(lastAction) >= settleTime && r.finished(ctx) {
			if finishedSince.IsZero() {
				finishedSince = time.Now()
			} else if time.Since(finishedSince) >= settleTime {
				return r.end(sim.EndQuiescent), r.at(finishedSince), r.exitStatus()
			}
		} else {
			finishedSince = time.Time{}
		}
		wake := time.NewTimer(r.nextWake(actions, next))
		select {
		case <-ctx.Done():
		case <-wake.C:
		}
		wake.Stop()
	}
}

// nextWake is how long Play may sleep: until the next check, the next
// action or the end of --until, whichever comes first.
func (r *Run) nextWake(actions []scenario.Action, next int) time.Duration {
	d := checkEvery
	elapsed := time.Since(r.start)
	if next < len(actions) {
		d = min(d, actions[next].At-elapsed)
	}
	if r.sim.Until > 0 {
		d = min(d, r.sim.Until-elapsed)
	}
	return max(d, 0)
}

// end stops the observer and returns the reason.
func (r *Run) end(reason string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = true
	return reason
}

// finished is play.Finished on the run's caches, once they are known to
// hold what the API holds: a rollout's last status write must be in the
// trace before the run says it has ended.
// exitStatus is the run's error at its end when ExitStatus asks for
// kubectl's: nil once every rollout has finished.
func (r *Run) exitStatus() error {
	if !r.sim.ExitStatus {
		return nil
	}
	return play.RolloutsFinished(r.runner.Listers())
}

func (r *Run) finished(ctx context.Context) bool {
	return play.Finished(r.runner.Listers(), r.groups) && r.caughtUp(ctx)
}

// caughtUp reports whether the caches hold the API's latest version of every
// workload in the namespace.
func (r *Run) caughtUp(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, ns, o := r.client, r.Namespace, metav1.ListOptions{}
	lists := map[control.Kind]func() (runtime.Object, error){
		control.ReplicaSets: func() (runtime.Object, error) { return c.AppsV1().ReplicaSets(ns).List(ctx, o) },
	}
	for _, row := range objects.Builtin() {
		lists[control.Workload(row.Kind)] = func() (runtime.Object, error) { return row.ListWatch(c, ns).List(ctx, o) }
	}
	for kind, list := range lists {
		l, err := list()
		if err != nil {
			return false
		}
		items, err := meta.ExtractList(l)
		if err != nil {
			return false
		}
		cache := r.runner.informers[kind].GetIndexer()
		if len(cache.ListKeys()) != len(items) {
			return false
		}
		for _, item := range items {
			it, err := meta.Accessor(item)
			if err != nil {
				return false
			}
			obj, ok, _ := cache.GetByKey(it.GetNamespace() + "/" + it.GetName())
			m, _ := meta.Accessor(obj)
			if !ok || m == nil || m.GetResourceVersion() != it.GetResourceVersion() {
				return false
			}
		}
	}
	return true
}
