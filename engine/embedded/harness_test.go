package embedded_test

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/engine/trace"
	"rollscope/kube/memapi"
	"rollscope/model"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// run is one scenario run with its trace and the checks made along the way.
type run struct {
	t       *testing.T
	cluster *embedded.Cluster
	trace   bytes.Buffer
	end     string
	actions []string
	// rsSpecs records every ReplicaSet spec change in order: "name=N".
	rsSpecs []string
	lastRS  map[string]int32
	// violations of the rollout invariants, checked at every change.
	violations []string
	// calm[d] is true while deployment d has been complete since its last
	// change of size: availability must then stay at replicas - maxUnavailable.
	calm      map[string]bool
	calmSpec  map[string]int32
	unhealthy bool // the scenario has failing pods: skip the availability check
	// lastChange is when anything last changed; a healthy rollout that is
	// still in progress must never sit still for stallLimit.
	lastChange time.Time
}

// stallLimit is far longer than any gap between pod changes in a healthy
// rollout of the test scenarios (pull + start + ready + jitter + minReadySeconds).
const stallLimit = 120 * time.Second

// withFailingPods is for scenarios whose pods are meant to fail: the
// availability invariant does not apply to them.
func withFailingPods(r *run) { r.unhealthy = true }

func startRun(t *testing.T, sc *scenario.Scenario, seed int64, opts ...func(*run)) *run {
	t.Helper()
	r := &run{t: t, lastRS: map[string]int32{}, calm: map[string]bool{}, calmSpec: map[string]int32{}}
	for _, o := range opts {
		o(r)
	}
	clock := sim.NewClock(epoch)
	s := sc.Seed
	if seed != 0 {
		s = seed
	}
	api := memapi.New(memapi.Options{Clock: clock, Seed: s})
	tw := trace.New(&r.trace, trace.JSONL, epoch, sc.NodeGroups)
	var err error
	r.cluster, err = embedded.Start(context.Background(), api, clock, sc, embedded.Options{
		Seed:      seed,
		Observers: []sim.Observer{tw.Observe, r.check},
		OnAction: func(now time.Time, kind, target, result string) {
			tw.Action(now, kind, target, result)
			r.actions = append(r.actions, fmt.Sprintf("%s %s: %s", kind, target, result))
		},
	})
	if err != nil {
		t.Fatalf("starting scenario %s: %v", sc.Name, err)
	}
	r.end, err = r.cluster.Run(context.Background(), 0)
	if err != nil {
		t.Fatalf("running scenario %s: %v", sc.Name, err)
	}
	tw.End(clock.Now(), r.end)
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	return r
}

// check runs at every committed change, after the caches have it.
func (r *run) check(now time.Time, ev watch.Event) {
	if rs, ok := ev.Object.(*appsv1.ReplicaSet); ok && ev.Type != watch.Deleted {
		spec := int32(0)
		if rs.Spec.Replicas != nil {
			spec = *rs.Spec.Replicas
		}
		if last, seen := r.lastRS[rs.Name]; !seen || last != spec {
			r.rsSpecs = append(r.rsSpecs, fmt.Sprintf("%s=%d", rs.Name, spec))
			r.lastRS[rs.Name] = spec
		}
	}
	l := r.cluster.Runner.Listers()
	ds, _ := l.Deployments.List(labels.Everything())
	for _, d := range ds {
		r.checkDeployment(now, d)
		if gap := now.Sub(r.lastChange); !r.unhealthy && !r.lastChange.IsZero() && gap > stallLimit && inProgress(d) {
			r.violations = append(r.violations, fmt.Sprintf("t=%.3f %s: rollout in progress sat still for %v", now.Sub(epoch).Seconds(), d.Name, gap))
		}
	}
	r.lastChange = now
}

func inProgress(d *appsv1.Deployment) bool {
	return !d.Spec.Paused && !model.DeploymentComplete(d, &d.Status)
}

func (r *run) checkDeployment(now time.Time, d *appsv1.Deployment) {
	rss := r.owned(d)
	var total, available int32
	for _, rs := range rss {
		total += *rs.Spec.Replicas
		available += rs.Status.AvailableReplicas
	}
	replicas := *d.Spec.Replicas
	at := now.Sub(epoch).Seconds()
	// The controller has not acted on a new spec yet: bounds are in flux.
	if d.Status.ObservedGeneration < d.Generation {
		r.calm[d.Name] = false
		return
	}
	if d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if max := replicas + model.MaxSurge(d); total > max && !d.Spec.Paused {
			r.violations = append(r.violations, fmt.Sprintf("t=%.3f %s: Σ ReplicaSet spec %d > replicas+maxSurge %d", at, d.Name, total, max))
		}
		if r.calm[d.Name] && r.calmSpec[d.Name] == replicas && !r.unhealthy {
			if min := model.MinAvailable(d); available < min {
				r.violations = append(r.violations, fmt.Sprintf("t=%.3f %s: Σ available %d < replicas-maxUnavailable %d", at, d.Name, available, min))
			}
		}
	}
	if r.calmSpec[d.Name] != replicas {
		r.calm[d.Name] = false
	}
	if model.DeploymentComplete(d, &d.Status) {
		r.calm[d.Name] = true
		r.calmSpec[d.Name] = replicas
	}
}

func (r *run) owned(d *appsv1.Deployment) []*appsv1.ReplicaSet {
	objs, _ := r.cluster.Runner.Listers().ReplicaSetIndex.ByIndex("controller-uid", string(d.UID))
	out := make([]*appsv1.ReplicaSet, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.(*appsv1.ReplicaSet))
	}
	sort.Slice(out, func(i, j int) bool {
		a, _ := model.Revision(out[i])
		b, _ := model.Revision(out[j])
		return a < b
	})
	return out
}

func (r *run) deployment(name string) *appsv1.Deployment {
	d, err := r.cluster.Runner.Listers().Deployments.Deployments(r.cluster.Scenario.Namespace).Get(name)
	if err != nil {
		r.t.Fatalf("deployment %s: %v", name, err)
	}
	return d
}

// requireComplete asserts the rollout finished with the new ReplicaSet at full
// size running the deployment's template, and every old one at zero.
func (r *run) requireComplete(name string) {
	r.t.Helper()
	d := r.deployment(name)
	if !model.DeploymentComplete(d, &d.Status) {
		r.t.Fatalf("%s did not complete: status %+v", name, d.Status)
	}
	newRS := model.FindNewReplicaSet(d, r.owned(d))
	if newRS == nil {
		r.t.Fatalf("%s has no ReplicaSet for its template", name)
	}
	for _, rs := range r.owned(d) {
		want := int32(0)
		if rs.UID == newRS.UID {
			want = *d.Spec.Replicas
		}
		if *rs.Spec.Replicas != want || rs.Status.AvailableReplicas != want {
			r.t.Errorf("%s: ReplicaSet %s has spec %d, available %d; want %d", name, rs.Name, *rs.Spec.Replicas, rs.Status.AvailableReplicas, want)
		}
	}
}

func (r *run) requireNoViolations() {
	r.t.Helper()
	if len(r.violations) > 0 {
		n := len(r.violations)
		if n > 10 {
			r.violations = r.violations[:10]
		}
		r.t.Fatalf("%d invariant violations, first: %v", n, r.violations)
	}
}

func parse(t *testing.T, name, src string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("scenario: %v", err)
	}
	return sc
}

func load(t *testing.T, name string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatalf("built-in %s: %v", name, err)
	}
	return sc
}
