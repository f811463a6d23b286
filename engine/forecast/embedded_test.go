package forecast_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/embedded"
	"rollscope/engine/forecast"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// observed is what a rollout did on the embedded cluster after the set
// image: ReplicaSet scalings, the most pods wanted, the fewest available,
// and when the ReplicaSets last changed (the last new pods available).
type observed struct {
	steps        int
	peak, lowest int32
	finished     time.Duration
	spec, avail  map[string]int32
	watching     bool
	start        time.Time
	// switched is when the active Service (checkout-active) moved, to
	// the ReplicaSet to; scaledDown when another ReplicaSet, old, went to
	// zero.
	switched, scaledDown time.Duration
	moved                bool
	to, old, hash        string
}

// begin starts watching at now, from the ReplicaSets as they are.
func (o *observed) begin(now time.Time) {
	o.watching, o.start = true, now
	o.peak, o.lowest = o.totals()
}

func (o *observed) totals() (total, avail int32) {
	for name := range o.spec {
		total += o.spec[name]
		avail += o.avail[name]
	}
	return total, avail
}

// observeService notes the active Service's moves.
func (o *observed) observeService(now time.Time, svc *corev1.Service) {
	h := svc.Spec.Selector["rollouts-pod-template-hash"]
	if svc.Name != "checkout-active" || h == o.hash {
		return
	}
	o.hash, o.to = h, "checkout-"+h
	if o.watching {
		o.switched, o.moved = now.Sub(o.start), true
	}
}

func (o *observed) observe(now time.Time, ev watch.Event) {
	if svc, ok := ev.Object.(*corev1.Service); ok {
		o.observeService(now, svc)
		return
	}
	rs, ok := ev.Object.(*appsv1.ReplicaSet)
	if !ok || !o.watching {
		if ok {
			o.spec[rs.Name], o.avail[rs.Name] = *rs.Spec.Replicas, rs.Status.AvailableReplicas
		}
		return
	}
	if ev.Type == watch.Deleted {
		return
	}
	if *rs.Spec.Replicas != o.spec[rs.Name] {
		o.steps++
		if *rs.Spec.Replicas == 0 && rs.Labels["rollouts-pod-template-hash"] != o.hash {
			o.scaledDown, o.old = now.Sub(o.start), rs.Name
		}
	}
	if *rs.Spec.Replicas != o.spec[rs.Name] || rs.Status.AvailableReplicas != o.avail[rs.Name] {
		o.finished = now.Sub(o.start)
	}
	o.spec[rs.Name], o.avail[rs.Name] = *rs.Spec.Replicas, rs.Status.AvailableReplicas
	total, avail := o.totals()
	o.peak, o.lowest = max(o.peak, total), min(o.lowest, avail)
}

const scenarioFmt = `name: forecast
seed: 1
namespace: default
nodeGroups:
  - {name: nodes, size: 4, capacity: {pods: 60, cpu: "32", memory: 64Gi}}
images:
  - {match: "app:*", pull: 1s, start: 1s, ready: 2s}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: %d
    minReadySeconds: 5
    selector: {matchLabels: {app: web}}
    strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: %s, maxUnavailable: %s}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: app, image: "app:v1"}]
`

// memapiBackend gives each simulated forecast a fresh embedded API, as the
// console does.
func memapiBackend(clock *sim.Clock) forecast.Backend {
	return memapi.New(memapi.Options{Clock: clock, Seed: 1})
}

func setImage(image string) forecast.Change {
	return func(ctx context.Context, c kubernetes.Interface, t actions.Target) error {
		return actions.SetImage(ctx, c, t, "app", image, "")
	}
}

var web = actions.Target{Namespace: "default", Name: "web"}

// watched starts the forecast scenario on the embedded cluster, with an
// observer of its ReplicaSets.
func watched(t *testing.T, replicas int32, surge, unavail string) (*embedded.Cluster, *sim.Clock, *observed) {
	t.Helper()
	return watchedText(t, fmt.Sprintf(scenarioFmt, replicas, surge, unavail))
}

// watchedText starts the scenario text on the embedded cluster, with an
// observer of its ReplicaSets.
func watchedText(t *testing.T, text string) (*embedded.Cluster, *sim.Clock, *observed) {
	t.Helper()
	sc, err := scenario.Parse("f.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: 1})
	o := &observed{spec: map[string]int32{}, avail: map[string]int32{}, lowest: 1 << 30}
	cl, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{Observers: []sim.Observer{o.observe}})
	if err != nil {
		t.Fatal(err)
	}
	return cl, clock, o
}

// rehearse forecasts change from the cluster's state now, then sends it
// to the cluster and starts watching what it does. It returns the state
// read, the readiness estimate and the simulated forecast.
func rehearse(t *testing.T, cl *embedded.Cluster, clock *sim.Clock, o *observed, change forecast.Change) (forecast.State, forecast.Readiness, forecast.Forecast) {
	ctx := context.Background()
	st, err := forecast.ReadState(ctx, cl.Client, "default", "web", clock.Now())
	if err != nil {
		t.Error(err)
		return st, forecast.Readiness{}, forecast.Forecast{}
	}
	ready := forecast.ObservedReadiness(st.Deployment, st.Pods)
	f, err := forecast.Simulate(ctx, memapiBackend, st, ready, change)
	if err != nil {
		t.Error(err)
	}
	o.watching, o.start = true, clock.Now()
	if err := change(ctx, cl.Client, web); err != nil {
		t.Error(err)
	}
	return st, ready, f
}

// matches checks the simulation against what the cluster did: the same
// steps, peak and lowest, and the duration within a tenth (and a second).
func (o *observed) matches(t *testing.T, simulated forecast.Forecast) {
	t.Helper()
	if simulated.Steps != o.steps || simulated.PeakPods != o.peak || simulated.LowestAvailable != o.lowest || simulated.Outcome != forecast.Finished {
		t.Errorf("simulation %+v; the cluster did %d steps, peak %d, lowest %d", simulated, o.steps, o.peak, o.lowest)
	}
	if d := simulated.Duration - o.finished; d < -o.finished/10-time.Second || d > o.finished/10+time.Second {
		t.Errorf("simulated duration %v, the cluster took %v", simulated.Duration, o.finished)
	}
}

// The forecast of a set image, simulated on a copy and by the arithmetic,
// matches what the embedded cluster's controllers then do, scaling for
// scaling; the simulated duration is what the cluster takes.
func TestForecastMatchesTheEmbeddedCluster(t *testing.T) {
	cases := []struct {
		replicas             int32
		surge, unavail       string
		maxSurge, maxUnavail int32
	}{
		{6, "1", "0", 1, 0},
		{10, `"25%"`, `"25%"`, 3, 2},
		{5, "0", "1", 0, 1},
		{10, `"50%"`, "0", 5, 0},
		{7, "2", "3", 2, 3},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d-%s-%s", tc.replicas, tc.surge, tc.unavail), func(t *testing.T) {
			cl, clock, o := watched(t, tc.replicas, tc.surge, tc.unavail)
			var simulated forecast.Forecast
			cl.Runner.At(60*time.Second, func() { _, _, simulated = rehearse(t, cl, clock, o, setImage("app:v2")) })
			if _, err := cl.Run(context.Background(), 30*time.Minute); err != nil {
				t.Fatal(err)
			}
			f, err := forecast.Rollout(forecast.Input{Replicas: tc.replicas, MaxSurge: tc.maxSurge, MaxUnavailable: tc.maxUnavail,
				Old: []forecast.Set{{Replicas: tc.replicas, Available: tc.replicas}}, PodReady: 9 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if f.Steps != o.steps || f.PeakPods != o.peak || f.LowestAvailable != o.lowest {
				t.Errorf("arithmetic %d steps, peak %d, lowest %d; the cluster did %d, %d, %d", f.Steps, f.PeakPods, f.LowestAvailable, o.steps, o.peak, o.lowest)
			}
			o.matches(t, simulated)
			t.Logf("simulation %v; arithmetic %v; the cluster took %v", simulated, f, o.finished)
		})
	}
}
