package forecast_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/actions"
	"rollscope/engine/embedded"
	"rollscope/engine/forecast"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// observed is what a rollout did on the embedded cluster after the set
// image: ReplicaSet scalings, the most pods wanted, the fewest available.
type observed struct {
	steps        int
	peak, lowest int32
	finished     time.Duration
	spec, avail  map[string]int32
	watching     bool
	start        time.Time
}

func (o *observed) observe(now time.Time, ev watch.Event) {
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
		o.finished = now.Sub(o.start)
	}
	o.spec[rs.Name], o.avail[rs.Name] = *rs.Spec.Replicas, rs.Status.AvailableReplicas
	var total, avail int32
	for name := range o.spec {
		total += o.spec[name]
		avail += o.avail[name]
	}
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

// The forecast of a set image matches what the embedded cluster's
// controllers then do, scaling for scaling.
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
			sc, err := scenario.Parse("f.yaml", []byte(fmt.Sprintf(scenarioFmt, tc.replicas, tc.surge, tc.unavail)))
			if err != nil {
				t.Fatal(err)
			}
			clock := sim.NewClock(epoch)
			api := memapi.New(memapi.Options{Clock: clock, Seed: 1})
			o := &observed{spec: map[string]int32{}, avail: map[string]int32{}, lowest: 1 << 30}
			ctx := context.Background()
			cl, err := embedded.Start(ctx, api, clock, sc, embedded.Options{Observers: []sim.Observer{o.observe}})
			if err != nil {
				t.Fatal(err)
			}
			cl.Runner.At(60*time.Second, func() {
				o.watching, o.start = true, clock.Now()
				if err := actions.SetImage(ctx, cl.Client, actions.Target{Namespace: "default", Name: "web"}, "app", "app:v2", ""); err != nil {
					t.Error(err)
				}
			})
			if _, err := cl.Run(ctx, 30*time.Minute); err != nil {
				t.Fatal(err)
			}
			f, err := forecast.Rollout(forecast.Input{Replicas: tc.replicas, MaxSurge: tc.maxSurge, MaxUnavailable: tc.maxUnavail,
				Old: []forecast.Set{{Replicas: tc.replicas, Available: tc.replicas}}, PodReady: 9 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if f.Steps != o.steps || f.PeakPods != o.peak || f.LowestAvailable != o.lowest {
				t.Errorf("forecast %d steps, peak %d, lowest %d; the cluster did %d, %d, %d", f.Steps, f.PeakPods, f.LowestAvailable, o.steps, o.peak, o.lowest)
			}
			t.Logf("forecast %v; the cluster took %v", f, o.finished)
		})
	}
}
