package forecast_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/argo"
	"rollscope/engine/embedded"
	"rollscope/engine/forecast"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

// canaryScenario is a basic canary of five pods whose image is set to v2
// at 10s: it pauses at step 2 (indefinitely) by a minute in.
const canaryScenario = `name: forecast
seed: 1
namespace: shop
nodeGroups:
  - {name: nodes, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
  apiVersion: argoproj.io/v1alpha1
  kind: Rollout
  metadata: {name: checkout}
  spec:
    replicas: 5
    selector: {matchLabels: {app: checkout}}
    template:
      metadata: {labels: {app: checkout}}
      spec: {containers: [{name: web, image: "shop/checkout:v1"}]}
    strategy:
      canary:
        steps: [{setWeight: 20}, {pause: {}}, {setWeight: 60}, {pause: {duration: 20s}}, {setWeight: 80}, {pause: {}}]
actions:
  - {at: 10s, setImage: {target: rollout/checkout, image: "shop/checkout:v2"}}
`

var checkout = argo.Target{Namespace: "shop", Name: "checkout"}

func argoChange(send func(ctx context.Context, c kubernetes.Interface, t argo.Target) (string, error)) forecast.Change {
	return func(ctx context.Context, c kubernetes.Interface, t actions.Target) error {
		_, err := send(ctx, c, argo.Target{Namespace: t.Namespace, Name: t.Name})
		return err
	}
}

// The forecast of promote, promote-full, abort and undo on a paused
// canary, rehearsed on a copy by the embedded Argo controller, is what the
// embedded cluster then does: the same ReplicaSet scalings, the same peak
// and fewest available, about the same time, and the same stop.
func TestRolloutForecastMatchesTheEmbeddedCluster(t *testing.T) {
	cases := []struct {
		name   string
		change forecast.Change
		says   string
	}{
		{"promote", argoChange(argo.Promote.Send), "then pauses at step 6 of 6 until promoted"},
		{"promote-full", argoChange(argo.PromoteFull.Send), "about "},
		{"abort", argoChange(argo.Abort.Send), "then is aborted, back on its stable pods"},
		{"undo", argoChange(func(ctx context.Context, c kubernetes.Interface, t argo.Target) (string, error) {
			return argo.Undo(ctx, c, t, 0)
		}), "about "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Parse("f.yaml", []byte(canaryScenario))
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
			var f forecast.Forecast
			cl.Runner.At(60*time.Second, func() {
				ctx := context.Background()
				st, err := forecast.ReadRollout(ctx, cl.Client, "shop", "checkout", clock.Now())
				if err != nil {
					t.Fatal(err)
				}
				if f, err = forecast.SimulateRollout(ctx, memapiBackend, st, forecast.PodReadiness(0, st.Pods), tc.change); err != nil {
					t.Fatal(err)
				}
				o.watching, o.start = true, clock.Now()
				if err := tc.change(ctx, cl.Client, actions.Target{Namespace: "shop", Name: "checkout"}); err != nil {
					t.Fatal(err)
				}
			})
			if _, err := cl.Run(context.Background(), 30*time.Minute); err != nil {
				t.Fatal(err)
			}
			if f.Steps == 0 || f.Steps != o.steps || f.PeakPods != o.peak || f.LowestAvailable != o.lowest {
				t.Errorf("forecast %+v; the cluster did %d steps, peak %d, lowest %d", f, o.steps, o.peak, o.lowest)
			}
			if d := f.Duration - o.finished; d < -o.finished/10-time.Second || d > o.finished/10+time.Second {
				t.Errorf("forecast duration %v, the cluster took %v", f.Duration, o.finished)
			}
			if !strings.Contains(f.String(), tc.says) {
				t.Errorf("forecast %q, want it to say %q", f, tc.says)
			}
			t.Logf("%s: %s; the cluster took %v", tc.name, f, o.finished)
		})
	}
}

// A Rollout whose shape the embedded controller does not run is not
// rehearsed: the forecast says so in one line, naming the field.
func TestAnUnmodelledRolloutIsNotForecast(t *testing.T) {
	sc, err := scenario.Parse("f.yaml", []byte(canaryScenario))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	cl, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock, Seed: 1}), clock, sc, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := forecast.ReadRollout(context.Background(), cl.Client, "shop", "checkout", clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	st.Rollout.Spec.Strategy.Canary.TrafficRouting = []byte(`{"nginx":{"stableIngress":"web"}}`)
	_, err = forecast.SimulateRollout(context.Background(), memapiBackend, st, forecast.Readiness{}, argoChange(argo.Promote.Send))
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "spec.strategy.canary.trafficRouting") || !strings.Contains(err.Error(), "does not run") {
		t.Errorf("forecast of a routed canary: %v; want one line naming trafficRouting", err)
	}
}

// pausedCanary is the state of canaryScenario's Rollout, scaled to
// replicas, a minute in: paused at step 2 for a promote.
func pausedCanary(b *testing.B, replicas int) forecast.RolloutState {
	b.Helper()
	text := strings.Replace(canaryScenario, "replicas: 5", "replicas: "+strconv.Itoa(replicas), 1)
	text = strings.Replace(text, "capacity: {pods: 30,", "capacity: {pods: "+strconv.Itoa(replicas)+",", 1)
	sc, err := scenario.Parse("f.yaml", []byte(text))
	if err != nil {
		b.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	cl, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock, Seed: 1}), clock, sc, embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := cl.Run(context.Background(), time.Minute); err != nil {
		b.Fatal(err)
	}
	st, err := forecast.ReadRollout(context.Background(), cl.Client, "shop", "checkout", clock.Now())
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// benchmarkRolloutPromote forecasts a promote of a paused canary of
// replicas pods (through the 60 % step, its timed pause and 80 %, to the
// last indefinite pause), reporting CPU time per forecast as
// benchmarkSimulate does: the confirmation waits for it.
func benchmarkRolloutPromote(b *testing.B, replicas int) {
	st := pausedCanary(b, replicas)
	change := argoChange(argo.Promote.Send)
	start := cpuTime()
	for b.Loop() {
		f, err := forecast.SimulateRollout(context.Background(), memapiBackend, st, forecast.PodReadiness(0, st.Pods), change)
		if err != nil || f.Steps == 0 {
			b.Fatal(f, err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func BenchmarkRolloutPromote100(b *testing.B)  { benchmarkRolloutPromote(b, 100) }
func BenchmarkRolloutPromote1000(b *testing.B) { benchmarkRolloutPromote(b, 1000) }
