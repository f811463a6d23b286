package argo

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/test/e2e/e2etest"
)

// errorRateTemplate is an AnalysisTemplate with one web metric read from url:
// the error rate must stay under 5 %, one measurement, no failure allowed.
func errorRateTemplate(url string) string {
	return `
apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: error-rate
spec:
  metrics:
  - name: error-rate
    count: 1
    failureLimit: 0
    successCondition: result < 0.05
    provider:
      web:
        url: ` + url + `
        jsonPath: "{$.errorRate}"
        timeoutSeconds: 5
`
}

const analysedManifest = `
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: checkout
spec:
  replicas: 5
  revisionHistoryLimit: 3
  selector:
    matchLabels: {app: checkout}
  template:
    metadata:
      labels: {app: checkout}
    spec:
      containers:
      - name: app
        image: registry.example/checkout:v1
  strategy:
    canary:
      steps:
      - setWeight: 20
      - analysis:
          templates:
          - templateName: error-rate
      - setWeight: 60
      - pause: {}
`

// analysisRun is what an operator reads from an AnalysisRun: its phase and
// each metric's counts and measurements.
type analysisRun struct {
	Name   string
	Status struct {
		Phase         string
		Message       string
		MetricResults []struct {
			Name, Phase, Message                    string
			Count, Successful, Failed, Inconclusive int
			Error                                   int
			Measurements                            []struct{ Phase, Value, Message string }
		}
	}
}

// TestFailingAnalysisAbortsTheCanary: the canary's analysis step measures
// an error rate of 42 % from a web metric served on 127.0.0.1; the
// AnalysisRun fails with that measurement in its status, and the Rollout
// aborts back to its stable revision.
func TestFailingAnalysisAbortsTheCanary(t *testing.T) {
	t.Parallel()
	c := cluster(t)
	var asked atomic.Int32
	metric := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		asked.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"errorRate": 0.42}`)
	}))
	defer metric.Close()

	const ns = "analysis"
	r := newRollout(t, c, ns, analysedManifest)
	tmpl := decode(t, errorRateTemplate(metric.URL+"/error-rate"))
	if _, err := c.Argo.Dynamic.Resource(e2etest.AnalysisTemplatesGVR).Namespace(ns).Create(t.Context(), tmpl, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating the AnalysisTemplate: %v", err)
	}
	first := r.waitFor(t, "the first revision healthy", healthy(5))

	r.setImage(t, "registry.example/checkout:v2")
	end := r.waitFor(t, "aborted by its analysis: Degraded, the canary at 0, the stable revision at 5", func(s snapshot) bool {
		return s.Phase == "Degraded" && s.Abort && s.StableRS == first.StableRS && s.CurrentPodHash != first.StableRS &&
			s.rs(s.CurrentPodHash).Spec == 0 && s.rs(first.StableRS).Spec == 5 && s.rs(first.StableRS).Ready == 5
	})
	if !strings.Contains(strings.ToLower(end.Message), "aborted") || !strings.Contains(end.Message, "error-rate") {
		t.Errorf("the aborted Rollout's message is %q, want it to say aborted and name the metric error-rate", end.Message)
	}

	run := theAnalysisRun(t, c, ns, "Failed", func(p string) bool { return p == "Failed" })
	if len(run.Status.MetricResults) != 1 {
		t.Fatalf("AnalysisRun %s has %d metric results, want 1: %+v", run.Name, len(run.Status.MetricResults), run.Status)
	}
	m := run.Status.MetricResults[0]
	if m.Name != "error-rate" || m.Phase != "Failed" || m.Count != 1 || m.Failed != 1 || m.Successful != 0 || m.Error != 0 {
		t.Errorf("metric result %+v, want error-rate Failed with count 1, failed 1, successful 0, error 0", m)
	}
	if len(m.Measurements) != 1 || m.Measurements[0].Phase != "Failed" || m.Measurements[0].Value != "0.42" {
		t.Errorf("measurements %+v, want one Failed measurement of 0.42", m.Measurements)
	}
	if asked.Load() == 0 {
		t.Errorf("the metric server was never asked, yet the AnalysisRun says %+v", run.Status)
	}
}

// theAnalysisRun waits until the namespace's one AnalysisRun's phase is
// done (what names it), and returns it.
func theAnalysisRun(t *testing.T, c *e2etest.Cluster, ns, what string, done func(phase string) bool) analysisRun {
	t.Helper()
	var run analysisRun
	c.Poll(t, "the Rollout's AnalysisRun "+what, func(ctx context.Context) (bool, string, error) {
		var ok bool
		var err error
		if run, ok, err = readAnalysisRun(ctx, c, ns); err != nil || !ok {
			return false, "no single AnalysisRun", err
		}
		return done(run.Status.Phase), fmt.Sprintf("%s: %+v", run.Name, run.Status), nil
	})
	return run
}

// readAnalysisRun reads the one AnalysisRun in ns; false while there is
// none (or more than one).
func readAnalysisRun(ctx context.Context, c *e2etest.Cluster, ns string) (analysisRun, bool, error) {
	list, err := c.Argo.Dynamic.Resource(e2etest.AnalysisRunsGVR).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) != 1 {
		return analysisRun{}, false, err
	}
	run := analysisRun{Name: list.Items[0].GetName()}
	return run, true, remarshal(list.Items[0].Object, &run)
}
