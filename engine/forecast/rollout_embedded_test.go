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
	"rollscope/internal/rolloutfixture"
	"rollscope/kube/memapi"
	modelargo "rollscope/model/argo"
)

// rolloutHeader is what the Rollout forecast scenarios share: three nodes,
// pods ready 4s after creation, in namespace shop.
const rolloutHeader = `name: forecast
seed: 1
namespace: shop
nodeGroups:
  - {name: nodes, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
`

// canaryScenario is a basic canary of five pods whose image is set to v2
// at 10s: it pauses at step 2 (indefinitely) by a minute in.
var canaryScenario = rolloutHeader + `objects: |
` + rolloutfixture.Rollout(5, "{canary: {steps: [{setWeight: 20}, {pause: {}}, {setWeight: 60}, {pause: {duration: 20s}}, {setWeight: 80}, {pause: {}}]}}") + `actions:
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
			f, o := forecastThenDo(t, canaryScenario, 60*time.Second, tc.change)
			compare(t, f, o, tc.says)
		})
	}
}

// forecastThenDo runs the scenario text on the embedded cluster, and at
// at forecasts change on rollout shop/checkout, then does it: the forecast
// and what the cluster then did.
func forecastThenDo(t *testing.T, text string, at time.Duration, change forecast.Change) (forecast.Forecast, *observed) {
	t.Helper()
	cl, clock, o := watchedText(t, text)
	var f forecast.Forecast
	cl.Runner.At(at, func() {
		ctx := context.Background()
		st, err := forecast.ReadRollout(ctx, cl.Client, "shop", "checkout", clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if f, err = forecast.SimulateRollout(ctx, memapiBackend, st, forecast.PodReadiness(0, st.Pods), change); err != nil {
			t.Fatal(err)
		}
		o.begin(clock.Now())
		if err := change(ctx, cl.Client, actions.Target{Namespace: "shop", Name: "checkout"}); err != nil {
			t.Fatal(err)
		}
	})
	// Not cl.Run, which stops once every rollout is settled or paused: the
	// cluster runs until nothing is left to do, so that what a forecast
	// leaves out (pods still going after a pause is reached) shows.
	if _, err := cl.Runner.Run(context.Background(), sim.RunOptions{Until: at + 30*time.Minute}); err != nil {
		t.Fatal(err)
	}
	return f, o
}

// compare fails t unless forecast f is what the cluster did (o): the same
// ReplicaSet scalings, peak and fewest available, the time within 10 %,
// and f says says.
func compare(t *testing.T, f forecast.Forecast, o *observed, says string) {
	t.Helper()
	if f.Steps != o.steps || f.PeakPods != o.peak || f.LowestAvailable != o.lowest {
		t.Errorf("forecast %+v; the cluster did %d steps, peak %d, lowest %d", f, o.steps, o.peak, o.lowest)
	}
	if !near(f.Duration, o.finished) {
		t.Errorf("forecast duration %v, the cluster took %v", f.Duration, o.finished)
	}
	if !strings.Contains(f.String(), says) {
		t.Errorf("forecast %q, want it to say %q", f, says)
	}
	t.Logf("%s; the cluster took %v", f, o.finished)
}

// near reports whether a forecast time is within 10 % (and a second) of
// the cluster's.
func near(forecast, did time.Duration) bool {
	d := forecast - did
	return d >= -did/10-time.Second && d <= did/10+time.Second
}

// A Rollout whose shape the embedded controller does not run, or whose
// canary runs an analysis (what it will measure cannot be known), is not
// rehearsed: the forecast says so in one line rather than claim where the
// update ends.
func TestAnUnmodelledRolloutIsNotForecast(t *testing.T) {
	cases := []struct {
		name  string
		shape func(*modelargo.Rollout)
		says  []string
	}{
		{"traffic router", func(ro *modelargo.Rollout) {
			ro.Spec.Strategy.Canary.TrafficRouting = []byte(`{"nginx":{"stableIngress":"web"}}`)
		}, []string{"spec.strategy.canary.trafficRouting", "does not run"}},
		{"analysis step", func(ro *modelargo.Rollout) {
			ro.Spec.Strategy.Canary.Steps[1] = modelargo.CanaryStep{Analysis: &modelargo.RolloutAnalysis{Templates: []modelargo.AnalysisTemplateRef{{TemplateName: "error-rate"}}}}
		}, []string{"runs an analysis, whose measurements a rehearsal cannot know"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
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
			tc.shape(st.Rollout)
			_, err = forecast.SimulateRollout(context.Background(), memapiBackend, st, forecast.Readiness{}, argoChange(argo.Promote.Send))
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("forecast: %v; want one line saying why there is none", err)
			}
			for _, w := range tc.says {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("forecast: %v; want it to say %q", err, w)
				}
			}
		})
	}
}

// pausedCanary is the state of canaryScenario's Rollout, scaled to
// replicas, a minute in: paused at step 2 for a promote.
func pausedCanary(b *testing.B, replicas int) forecast.RolloutState {
	b.Helper()
	return pausedAt(b, strings.Replace(canaryScenario, "replicas: 5", "replicas: "+strconv.Itoa(replicas), 1), replicas, time.Minute)
}

// pausedAt is the state of rollout shop/checkout of scenario text (room
// made for replicas pods on each node) at the virtual time at.
func pausedAt(b *testing.B, text string, replicas int, at time.Duration) forecast.RolloutState {
	b.Helper()
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
	if _, err := cl.Run(context.Background(), at); err != nil {
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
	benchmarkPromote(b, pausedCanary(b, replicas))
}

// benchmarkPromote forecasts a promote of the Rollout in st.
func benchmarkPromote(b *testing.B, st forecast.RolloutState) {
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

// benchmarkBlueGreenPromote forecasts a promote of a blue/green Rollout of
// replicas pods held at its BlueGreenPause: the active Service switched at
// once, the old pods scaled down 30 s later.
func benchmarkBlueGreenPromote(b *testing.B, replicas int) {
	text := strings.Replace(blueGreenScenario(", autoPromotionEnabled: false"), "replicas: 3", "replicas: "+strconv.Itoa(replicas), 1)
	benchmarkPromote(b, pausedAt(b, text, replicas, time.Minute))
}

func BenchmarkBlueGreenPromote100(b *testing.B)  { benchmarkBlueGreenPromote(b, 100) }
func BenchmarkBlueGreenPromote1000(b *testing.B) { benchmarkBlueGreenPromote(b, 1000) }
