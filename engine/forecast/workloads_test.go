package forecast_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
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
	"rollscope/engine/workloads"
	"rollscope/kube/memapi"
	"rollscope/model"
	"rollscope/model/kind"
)

// podsSeen is what a StatefulSet's or DaemonSet's rollout did on the
// embedded cluster after the change: the pods deleted in order (names, or
// nodes for a DaemonSet), the most live pods, the fewest available, and
// when `kubectl rollout status` first said done with every pod available.
type podsSeen struct {
	daemon       bool
	app          string
	minReady     time.Duration
	watching     bool
	start        time.Time
	live         map[string]time.Time // pod → ready since (zero: not ready)
	slot         map[string]string
	deleted      []string
	peak, lowest int32
	finished     time.Duration
}

func (o *podsSeen) slotOf(p *corev1.Pod) string {
	if o.daemon {
		return model.DaemonPodNode(p)
	}
	return p.Name
}

func (o *podsSeen) observe(now time.Time, ev watch.Event) {
	switch obj := ev.Object.(type) {
	case *corev1.Pod:
		if obj.Labels["app"] != o.app {
			return
		}
		_, had := o.live[obj.Name]
		if ev.Type == watch.Deleted || obj.DeletionTimestamp != nil {
			if had {
				delete(o.live, obj.Name)
				if o.watching {
					o.deleted = append(o.deleted, o.slot[obj.Name])
				}
			}
		} else {
			since := time.Time{}
			for _, c := range obj.Status.Conditions {
				if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
					since = c.LastTransitionTime.Time
				}
			}
			o.live[obj.Name], o.slot[obj.Name] = since, o.slotOf(obj)
		}
		if o.watching {
			var pods, avail int32
			for _, since := range o.live {
				pods++
				if !since.IsZero() && !since.Add(o.minReady).After(now) {
					avail++
				}
			}
			o.peak, o.lowest = max(o.peak, pods), min(o.lowest, avail)
		}
	case *appsv1.StatefulSet:
		if _, done, err := model.StatefulSetRolloutStatus(obj); o.watching && o.finished == 0 && err == nil && done &&
			obj.Status.AvailableReplicas == model.StatefulSetReplicas(obj) && obj.Status.Replicas == model.StatefulSetReplicas(obj) && now.After(o.start) {
			o.finished = now.Sub(o.start)
		}
	case *appsv1.DaemonSet:
		if _, done, err := model.DaemonSetRolloutStatus(obj); o.watching && o.finished == 0 && err == nil && done && now.After(o.start) {
			o.finished = now.Sub(o.start)
		}
	}
}

const workloadScenario = `name: forecast-workloads
seed: 3
namespace: default
nodeGroups:
  - {name: nodes, role: Node, size: 4, capacity: {pods: 40, cpu: "16", memory: 64Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s}
objects: |
  apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: db}
  spec:
    replicas: 5
    serviceName: db
    minReadySeconds: %d
    selector: {matchLabels: {app: db}}
    updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: %d, maxUnavailable: %d}}
    template:
      metadata: {labels: {app: db}}
      spec:
        containers: [{name: db, image: "db:1"}]
  ---
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: agent}
  spec:
    minReadySeconds: %d
    selector: {matchLabels: {app: agent}}
    updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: %d, maxSurge: %d}}
    template:
      metadata: {labels: {app: agent}}
      spec:
        containers: [{name: agent, image: "agent:1"}]
`

type workloadCase struct {
	name                          string
	stsMinReady, partition, stsMU int
	dsMinReady, dsMU, dsSurge     int
	target                        workloads.Target
	change                        func(ctx context.Context, c kubernetes.Interface, t workloads.Target) error
	// wantReplaced is the order of replacements the forecast must say.
	wantReplaced, wantCreated []string
	wantPerStep               int
}

var (
	db    = workloads.Target{Kind: kind.StatefulSet, Namespace: "default", Name: "db"}
	agent = workloads.Target{Kind: kind.DaemonSet, Namespace: "default", Name: "agent"}
)

func image(container, img string) func(context.Context, kubernetes.Interface, workloads.Target) error {
	return func(ctx context.Context, c kubernetes.Interface, t workloads.Target) error {
		return workloads.SetImage(ctx, c, t, container, img)
	}
}

// The forecast of a StatefulSet's or DaemonSet's action, rehearsed on a
// copy, is what the embedded cluster then does: the same pods replaced in
// the same order, the same peak and lowest availability, about the same
// time.
func TestWorkloadForecastMatchesTheEmbeddedCluster(t *testing.T) {
	nodes := []string{"nodes-0", "nodes-1", "nodes-2", "nodes-3"}
	cases := []workloadCase{
		{name: "sts-set-image", stsMU: 1, dsMU: 1, target: db, change: image("db", "db:2"),
			wantReplaced: []string{"db-4", "db-3", "db-2", "db-1", "db-0"}, wantPerStep: 1},
		{name: "sts-minready-maxunavailable-2", stsMinReady: 5, stsMU: 2, dsMU: 1, target: db, change: image("db", "db:2"),
			wantReplaced: []string{"db-4", "db-3", "db-2", "db-1", "db-0"}, wantPerStep: 2},
		{name: "sts-partitioned", partition: 3, stsMU: 1, dsMU: 1, target: db, change: image("db", "db:2"),
			wantReplaced: []string{"db-4", "db-3"}, wantPerStep: 1},
		{name: "sts-restart", stsMU: 1, dsMU: 1, target: db, change: func(ctx context.Context, c kubernetes.Interface, t workloads.Target) error {
			return workloads.Restart(ctx, c, t, "2026-01-01T00:01:00Z")
		}, wantReplaced: []string{"db-4", "db-3", "db-2", "db-1", "db-0"}, wantPerStep: 1},
		{name: "sts-scale", stsMU: 1, dsMU: 1, target: db, change: func(ctx context.Context, c kubernetes.Interface, t workloads.Target) error {
			return workloads.Scale(ctx, c, t, 7)
		}, wantCreated: []string{"db-5", "db-6"}},
		{name: "sts-lower-partition", partition: 5, stsMU: 1, dsMU: 1, target: db, change: func(ctx context.Context, c kubernetes.Interface, t workloads.Target) error {
			// The template changed earlier under partition 5 (in setup);
			// lowering it to 2 rolls ordinals 4, 3 and 2.
			return workloads.SetPartition(ctx, c, t, 2)
		}, wantReplaced: []string{"db-4", "db-3", "db-2"}, wantPerStep: 1},
		{name: "sts-undo", stsMU: 1, dsMU: 1, target: db, change: func(ctx context.Context, c kubernetes.Interface, t workloads.Target) error {
			// db:2 went out earlier (in setup); the undo brings db:1 back.
			_, err := workloads.Undo(ctx, c, t, 1)
			return err
		}, wantReplaced: []string{"db-4", "db-3", "db-2", "db-1", "db-0"}, wantPerStep: 1},
		{name: "ds-set-image", stsMU: 1, dsMU: 1, target: agent, change: image("agent", "agent:2"),
			wantReplaced: nodes, wantPerStep: 1},
		{name: "ds-surge", stsMU: 1, dsMU: 0, dsSurge: 2, dsMinReady: 3, target: agent, change: image("agent", "agent:2"),
			wantReplaced: nodes, wantPerStep: 2},
		{name: "ds-unavailable-2", stsMU: 1, dsMU: 2, target: agent, change: func(ctx context.Context, c kubernetes.Interface, t workloads.Target) error {
			return workloads.SetEnv(ctx, c, t, "agent", "LEVEL", "debug", false)
		}, wantReplaced: nodes, wantPerStep: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Parse("w.yaml", []byte(fmt.Sprintf(workloadScenario, tc.stsMinReady, tc.partition, tc.stsMU, tc.dsMinReady, tc.dsMU, tc.dsSurge)))
			if err != nil {
				t.Fatal(err)
			}
			clock := sim.NewClock(epoch)
			api := memapi.New(memapi.Options{Clock: clock, Seed: 1})
			o := &podsSeen{daemon: tc.target.Kind == kind.DaemonSet, app: tc.target.Name, live: map[string]time.Time{}, slot: map[string]string{}, lowest: 1 << 30}
			cl, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{Observers: []sim.Observer{o.observe}})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if tc.name == "sts-lower-partition" || tc.name == "sts-undo" {
				cl.Runner.At(30*time.Second, func() {
					if err := workloads.SetImage(ctx, cl.Client, db, "db", "db:2"); err != nil {
						t.Error(err)
					}
				})
			}
			var f forecast.WorkloadForecast
			cl.Runner.At(60*time.Second, func() {
				st, err := forecast.ReadWorkload(ctx, cl.Client, tc.target, clock.Now())
				if err != nil {
					t.Error(err)
					return
				}
				o.minReady = time.Duration(st.MinReadySeconds()) * time.Second
				change := func(ctx context.Context, c kubernetes.Interface, at actions.Target) error {
					return tc.change(ctx, c, workloads.Target{Kind: tc.target.Kind, Namespace: at.Namespace, Name: at.Name})
				}
				if f, err = forecast.SimulateWorkload(ctx, memapiBackend, st, forecast.PodReadiness(st.MinReadySeconds(), st.Pods), change); err != nil {
					t.Error(err)
				}
				o.watching, o.start = true, clock.Now()
				if err := tc.change(ctx, cl.Client, tc.target); err != nil {
					t.Error(err)
				}
			})
			if _, err := cl.Run(ctx, 20*time.Minute); err != nil {
				t.Fatal(err)
			}
			t.Logf("forecast: %s; the cluster deleted %v, peak %d, lowest %d, done after %v", f, o.deleted, o.peak, o.lowest, o.finished)
			if f.Outcome != forecast.Finished {
				t.Errorf("outcome %q", f.Outcome)
			}
			if !slices.Equal(f.Replaced, tc.wantReplaced) || !slices.Equal(f.Created, tc.wantCreated) || f.PodsPerStep != tc.wantPerStep {
				t.Errorf("forecast replaces %v (%d per step), creates %v; want %v (%d per step), %v", f.Replaced, f.PodsPerStep, f.Created, tc.wantReplaced, tc.wantPerStep, tc.wantCreated)
			}
			if !slices.Equal(f.Replaced, o.deleted) {
				t.Errorf("forecast replaces %v; the cluster deleted %v", f.Replaced, o.deleted)
			}
			if f.PeakPods != o.peak || f.LowestAvailable != o.lowest {
				t.Errorf("forecast peak %d, lowest %d; the cluster %d, %d", f.PeakPods, f.LowestAvailable, o.peak, o.lowest)
			}
			if d := f.Duration - o.finished; d < -o.finished/5-3*time.Second || d > o.finished/5+3*time.Second {
				t.Errorf("forecast takes %v, the cluster took %v", f.Duration, o.finished)
			}
			if s := f.String(); len(f.Replaced) > 0 && !strings.Contains(s, "replaces") {
				t.Errorf("forecast says %q", s)
			}
		})
	}
}
