package argo

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model/argo"
	"rollscope/test/e2e/e2etest"
)

// A served measurement: a rate (answered as {"rate": R}), or one of
// these two answers a broken provider gives.
const (
	serverError = "500"     // the server answers 500
	noField     = "no rate" // the server answers 200 with JSON that has no rate
)

// analysisFidelity are the series both controllers measure, one served
// answer per request, and the metric's limits. The template's
// successCondition is result < 0.05 and its interval 1s.
var analysisFidelity = []struct {
	name       string
	limits     string // the metric's count and limits
	series     []string
	background bool // the canary's background analysis, not a step's
}{
	// All pass: Successful at count, the canary promoted.
	{"healthy", "count: 3, failureLimit: 0", []string{"0.01", "0.02", "0.03"}, false},
	// The second failure is past failureLimit 1: Failed before count.
	{"failing", "count: 6, failureLimit: 1", []string{"0.01", "0.09", "0.02", "0.12", "0.01"}, false},
	// Failures alternate with passes, never past failureLimit 2, until
	// two passes in a row meet consecutiveSuccessLimit before count.
	{"flapping", "count: 8, failureLimit: 2, consecutiveSuccessLimit: 2", []string{"0.01", "0.09", "0.01", "0.09", "0.01", "0.01", "0.09"}, false},
	// A 500 then JSON without the metric's field: two errors in a row are
	// past consecutiveErrorLimit 1 (each retried 10s later). (A body that
	// is not JSON is no error: Argo v1.10's web provider takes it as a
	// Successful measurement, its conditions unevaluated.)
	{"erroring", "count: 4, consecutiveErrorLimit: 1", []string{"0.01", serverError, noField, "0.01"}, false},
	// Count reached without the two passes in a row that
	// consecutiveSuccessLimit wants, and no more failures than allowed:
	// Inconclusive, the canary paused.
	{"inconclusive", "count: 3, failureLimit: 1, consecutiveSuccessLimit: 2", []string{"0.01", "0.09", "0.01"}, false},
	// A background analysis while the canary waits at an indefinite
	// pause: Successful at count, the canary left paused; or Failed, the
	// update aborted.
	{"background-healthy", "count: 3", []string{"0.01"}, true},
	{"background-failing", "count: 5, failureLimit: 1", []string{"0.01", "0.09", "0.01", "0.09"}, true},
}

// analysisFidelityTemplate is the AnalysisTemplate both run; url is the
// web metric's (the embedded cluster asks no provider).
func analysisFidelityTemplate(limits, url string) string {
	return `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata: {name: rate}
spec:
  metrics:
  - name: rate
    interval: 1s
    successCondition: result < 0.05
    ` + strings.ReplaceAll(limits, ", ", "\n    ") + `
    provider:
      web: {url: "` + url + `", jsonPath: "{$.rate}", timeoutSeconds: 5}
`
}

// analysisFidelityRollout is the canary both run: its second step an
// analysis, or with background a background analysis from its first and
// an indefinite pause.
func analysisFidelityRollout(background bool) string {
	steps := `
      steps:
      - setWeight: 50
      - analysis: {templates: [{templateName: rate}]}
`
	if background {
		steps = `
      analysis: {templates: [{templateName: rate}]}
      steps:
      - setWeight: 50
      - pause: {}
`
	}
	return shopRollout(2, "    canary:"+steps)
}

// TestAnalysisEmbeddedMatchesArgo: the same canary step analysis,
// measured by Argo's real controller from a web metric served one answer
// per request and by the embedded cluster from the same series declared
// as the scenario's metrics, reaches the same verdict after the same
// measurements, each of the same phase, value and message, and leaves the
// Rollout promoted, aborted or paused with the same message.
func TestAnalysisEmbeddedMatchesArgo(t *testing.T) {
	t.Parallel()
	c := cluster(t)
	for _, tc := range analysisFidelity {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emb := playEmbeddedAnalysis(t, analysisFidelityRollout(tc.background), tc.limits, tc.series)
			live := playLiveAnalysis(t, c, "analysis-"+tc.name, analysisFidelityRollout(tc.background), tc.limits, tc.series)
			if strings.Join(emb, "\n") != strings.Join(live, "\n") {
				t.Errorf("the analysis differs:\n%s", sideBySide("embedded", "Argo", emb, live))
			} else if testing.Verbose() {
				t.Logf("both:\n  %s", strings.Join(live, "\n  "))
			}
		})
	}
}

// analysisOutcome is what an operator reads of a finished canary
// analysis: the run's verdict, its metric's counts, each measurement,
// and where the Rollout was left.
func analysisOutcome(run analysisRun, ro snapshot) []string {
	out := []string{fmt.Sprintf("run %s %q", run.Status.Phase, run.Status.Message)}
	for _, m := range run.Status.MetricResults {
		out = append(out, fmt.Sprintf("metric %s %s count %d successful %d failed %d inconclusive %d error %d",
			m.Name, m.Phase, m.Count, m.Successful, m.Failed, m.Inconclusive, m.Error))
		for i, ms := range m.Measurements {
			out = append(out, fmt.Sprintf("  %d: %s %s %q", i+1, ms.Phase, ms.Value, ms.Message))
		}
	}
	return append(out, fmt.Sprintf("rollout %s %q abort %v pause %v", ro.Phase, ro.Message, ro.Abort, ro.PauseReasons))
}

// playEmbeddedAnalysis runs the canary on the embedded cluster, the
// series declared as the metric's values, the new image at 30s.
func playEmbeddedAnalysis(t *testing.T, rollout, limits string, series []string) []string {
	t.Helper()
	var values []string
	for _, s := range series {
		switch s {
		case serverError:
			values = append(values, `{error: "received non 2xx response code: 500"}`)
		case noField:
			values = append(values, `{error: "Could not find JSONPath in body: rate is not found"}`)
		default:
			values = append(values, s)
		}
	}
	indent := func(s string) string { return "  " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ") }
	src := "namespace: shop\nseed: 1\nnodeGroups:\n  - {name: nodes, role: Node, size: 3, capacity: {pods: 110, cpu: \"8\", memory: 16Gi}}\n" +
		"images:\n  - {match: \"*\", pull: 200ms, start: 200ms, ready: 500ms, stop: 300ms}\n" +
		"objects: |\n" + indent(analysisFidelityTemplate(limits, "http://unused.example/rate")+"---\n"+rollout) + "\n" +
		"metrics:\n  - {metric: rate, values: [" + strings.Join(values, ", ") + "]}\n" +
		"actions:\n  - {at: 30s, setImage: {target: rollout/shop, image: \"registry.example/shop:v2\"}}\n"
	sc, err := scenario.Parse("analysis.yaml", []byte(src))
	if err != nil {
		t.Fatalf("scenario: %v\n%s", err, src)
	}
	var mu sync.Mutex
	var run analysisRun
	var ro *argo.Rollout
	observe := func(_ time.Time, ev watch.Event) {
		if ev.Type == watch.Deleted {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		switch o := ev.Object.(type) {
		case *argo.AnalysisRun:
			_ = remarshal(o, &run)
		case *argo.Rollout:
			ro = o.DeepCopy()
		case *unstructured.Unstructured:
			switch o.GetKind() {
			case "AnalysisRun":
				_ = remarshal(o.Object, &run)
			case "Rollout":
				if r, err := argo.RolloutOf(o); err == nil {
					ro = r
				}
			}
		}
	}
	clock := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	cl, err := embedded.Start(t.Context(), api, clock, sc, embedded.Options{Observers: []sim.Observer{observe}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Run(t.Context(), 3*time.Minute); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if ro == nil || run.Status.Phase == "" {
		t.Fatalf("the embedded cluster ran no analysis (Rollout %v, AnalysisRun %+v)", ro != nil, run)
	}
	s := snapshot{Phase: string(ro.Status.Phase), Message: ro.Status.Message, Abort: ro.Status.Abort}
	for _, p := range ro.Status.PauseConditions {
		s.PauseReasons = append(s.PauseReasons, string(p.Reason))
	}
	return analysisOutcome(run, s)
}

// playLiveAnalysis runs the canary under Argo's real controller in
// namespace ns, its web metric served from series one answer per request
// (the last repeating), and waits for the AnalysisRun's verdict, then
// for the Rollout to settle: promoted, aborted, or paused.
func playLiveAnalysis(t *testing.T, c *e2etest.Cluster, ns, rollout, limits string, series []string) []string {
	t.Helper()
	var mu sync.Mutex
	asked := 0
	metric := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		s := series[min(asked, len(series)-1)]
		asked++
		mu.Unlock()
		switch s {
		case serverError:
			http.Error(w, "internal error", http.StatusInternalServerError)
		case noField:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"errors": 1}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"rate": %s}`, s)
		}
	}))
	defer metric.Close()

	r := newRollout(t, c, ns, rollout)
	tmpl := decode(t, analysisFidelityTemplate(limits, metric.URL+"/rate"))
	if _, err := c.Argo.Dynamic.Resource(e2etest.AnalysisTemplatesGVR).Namespace(ns).Create(t.Context(), tmpl, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating the AnalysisTemplate: %v", err)
	}
	first := r.waitFor(t, "the first revision healthy", healthy(2))
	r.setImage(t, "registry.example/shop:v2")
	run := theAnalysisRun(t, c, ns, "completed", func(p string) bool {
		switch p {
		case "Successful", "Failed", "Error", "Inconclusive":
			return true
		}
		return false
	})
	end := r.waitFor(t, "promoted, aborted, or left paused after its analysis", func(s snapshot) bool {
		switch {
		case s.CurrentPodHash == first.StableRS:
			return false
		case s.Phase == "Healthy":
			return s.StableRS == s.CurrentPodHash
		case s.Phase == "Degraded":
			return s.Abort && s.rs(s.CurrentPodHash).Spec == 0
		}
		// A Failed or Error run aborts the update; the Rollout is
		// paused for good only by another verdict.
		return s.Phase == "Paused" && len(s.PauseReasons) > 0 && (run.Status.Phase == "Successful" || run.Status.Phase == "Inconclusive")
	})
	return analysisOutcome(run, end)
}
