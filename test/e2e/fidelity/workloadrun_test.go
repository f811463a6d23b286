package fidelity

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/embedded"
	"rollscope/engine/nodegroup"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

// What the StatefulSet and DaemonSet fidelity tests (workloads_test.go,
// daemonroll_test.go) share: how a case runs on the embedded cluster and is
// followed on the real one, and what "done" means for both.

// embeddedRun is a case on the embedded cluster: the group's nodes with
// workloadImages on a virtual clock, in namespace "default".
type embeddedRun struct {
	t      *testing.T
	sc     *scenario.Scenario
	clock  *sim.Clock
	api    *memapi.Cluster
	client kubernetes.Interface
	cl     *embedded.Cluster
}

// newEmbedded is the case's cluster before it starts: its clock is there
// for what observes it.
func newEmbedded(t *testing.T, name string, group nodegroup.Group) *embeddedRun {
	sc := &scenario.Scenario{Name: name, Seed: 1, Namespace: "default", NodeGroups: []nodegroup.Group{group}, Images: workloadImages}
	clock := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	api := memapi.New(memapi.Options{Clock: clock, Seed: 1})
	return &embeddedRun{t: t, sc: sc, clock: clock, api: api, client: api.Client()}
}

// start starts the cluster, handing observe every committed change. The
// caller closes it.
func (r *embeddedRun) start(observe func(watch.Event)) {
	r.t.Helper()
	cl, err := embedded.Start(r.t.Context(), r.api, r.clock, r.sc, embedded.Options{Observers: []sim.Observer{func(_ time.Time, ev watch.Event) { observe(ev) }}})
	if err != nil {
		r.t.Fatal(err)
	}
	r.cl = cl
}

func (r *embeddedRun) close() { r.cl.Runner.Close() }

// until runs the cluster a virtual second at a time until done says so and
// nothing is left to do, failing the test with the last state done
// described after 15 virtual minutes.
func (r *embeddedRun) until(what string, done func(ctx context.Context, c kubernetes.Interface) (bool, string, error)) {
	r.t.Helper()
	ctx := r.t.Context()
	for range 900 {
		if _, err := r.cl.Runner.Run(ctx, sim.RunOptions{Until: r.cl.Elapsed() + time.Second}); err != nil {
			r.t.Fatal(err)
		}
		if ok, _, _ := done(ctx, r.client); ok && r.cl.Finished() {
			return
		}
	}
	_, state, _ := done(ctx, r.client)
	r.t.Fatalf("embedded %s: %s never came: %s", r.sc.Name, what, state)
}

// followWatch hands every event of w to observe on a goroutine of its own;
// stop ends the watch and returns once the last event has been handed over.
func followWatch(t *testing.T, w watch.Interface, err error, observe func(watch.Event)) (stop func()) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			observe(ev)
		}
	}()
	return func() {
		w.Stop()
		<-done
	}
}

// daemonSetDone says whether the DaemonSet has rolled out on nodes nodes:
// its status observed, and an updated, available pod on every one.
func daemonSetDone(d *appsv1.DaemonSet, nodes int32) (bool, string) {
	st := d.Status
	done := st.ObservedGeneration >= d.Generation && st.DesiredNumberScheduled == nodes && st.UpdatedNumberScheduled == nodes &&
		st.NumberAvailable == nodes && st.CurrentNumberScheduled == nodes
	return done, fmt.Sprintf("daemonset %s: %+v", d.Name, st)
}

// noneTerminating says whether every pod in ns is gone or staying.
func noneTerminating(ctx context.Context, c kubernetes.Interface, ns string) (bool, string, error) {
	pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, "", err
	}
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			return false, "pod " + p.Name + " terminating", nil
		}
	}
	return true, "", nil
}

// revisionNumbers are the ControllerRevisions in ns: name → number.
func revisionNumbers(ctx context.Context, c kubernetes.Interface, ns string) (map[string]int64, error) {
	revs, err := c.AppsV1().ControllerRevisions(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, rev := range revs.Items {
		out[rev.Name] = rev.Revision
	}
	return out, nil
}
