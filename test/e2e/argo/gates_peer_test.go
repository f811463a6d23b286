package argo

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"rollscope/engine/canary"
	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/test/e2e/e2etest"
)

// missing is a measurement whose series Prometheus no longer has: the
// query returns no sample and result[0] cannot be evaluated (an error).
const missing = "missing"

// gatePeers are the series both sides read, one value per measurement
// (the last repeating), and the metric's count and limits.
var gatePeers = []struct {
	name, limits string
	series       []string
}{
	{"healthy", "count: 4", []string{"0.01", "0.02", "0.01", "0.03"}},
	{"failing", "count: 6, failureLimit: 1", []string{"0.01", "0.09", "0.02", "0.12"}},
	{"flapping", "count: 6, failureLimit: 2", []string{"0.01", "0.09", "0.01", "0.09", "0.01", "0.02"}},
	{"erroring", "count: 4, consecutiveErrorLimit: 1", []string{"0.01", missing}},
}

// gateTemplate is the AnalysisTemplate both sides use: the error rate of
// the namespace's canary, read from a real Prometheus at address.
func gateTemplate(address, limits string) string {
	return `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata: {name: error-rate}
spec:
  args: [{name: namespace}]
  metrics:
  - name: error-rate
    interval: 4s
    successCondition: result[0] < 0.05
    ` + strings.ReplaceAll(limits, ", ", "\n    ") + `
    provider:
      prometheus: {address: "` + address + `", query: 'error_rate{namespace="{{args.namespace}}"}'}
`
}

// On one control plane, one real Prometheus and one template: Argo's real
// controller analysing a Rollout's canary step, and rollscope's metric gate
// on a Deployment's guided canary step, each fed the same series one value
// per measurement, take the same measurements — phase and value, one by
// one — and reach the same verdict, for a healthy, a failing, a flapping
// and an erroring series.
func TestCanaryGateReachesArgosVerdictOnPrometheus(t *testing.T) {
	t.Parallel()
	c := cluster(t)
	exporter, prom := c.MetricGates(t)
	for _, tc := range gatePeers {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			template := gateTemplate(prom.URL, tc.limits)
			var argoSide, gateSide []string
			// Both sides at once; the group waits for the two.
			t.Run("sides", func(t *testing.T) {
				t.Run("argo", func(t *testing.T) {
					t.Parallel()
					argoSide = argoAnalysis(t, c, exporter, "peer-argo-"+tc.name, template, tc.series)
				})
				t.Run("rollscope", func(t *testing.T) {
					t.Parallel()
					gateSide = gateAnalysis(t, c, exporter, "peer-gate-"+tc.name, template, tc.series)
				})
			})
			if t.Failed() {
				return
			}
			if strings.Join(argoSide, "\n") != strings.Join(gateSide, "\n") {
				t.Errorf("the verdicts differ:\n%s", sideBySide("Argo", "rollscope", argoSide, gateSide))
			} else if testing.Verbose() {
				t.Logf("both:\n  %s", strings.Join(argoSide, "\n  "))
			}
		})
	}
}

// feed serves series' values for namespace ns one per measurement: value
// k once k measurements are taken (the last repeating); a missing value
// drops the series.
type feed struct {
	exporter *e2etest.Exporter
	ns       string
	series   []string
	served   int
}

func (f *feed) serve(taken int) {
	if taken < f.served {
		return
	}
	key := fmt.Sprintf(`error_rate{namespace=%q}`, f.ns)
	v := f.series[min(taken, len(f.series)-1)]
	if v == missing {
		f.exporter.Drop(key)
	} else {
		n, _ := strconv.ParseFloat(v, 64)
		f.exporter.Set(key, n)
	}
	f.served = taken + 1
}

// verdict is what both sides are compared on: the analysis's phase and
// each measurement's phase and value.
func verdict(phase string, measurements [][2]string) []string {
	out := []string{"verdict " + phase}
	for i, m := range measurements {
		out = append(out, fmt.Sprintf("  %d: %s %s", i+1, m[0], m[1]))
	}
	return out
}

// argoAnalysis runs a Rollout whose canary's second step is the template's
// analysis under Argo's real controller, feeding the series as its
// AnalysisRun measures, until the run's verdict.
func argoAnalysis(t *testing.T, c *e2etest.Cluster, exporter *e2etest.Exporter, ns, template string, series []string) []string {
	f := &feed{exporter: exporter, ns: ns, series: series}
	f.serve(0)
	r := newRollout(t, c, ns, shopRollout(2, `    canary:
      steps:
      - setWeight: 50
      - analysis: {templates: [{templateName: error-rate}], args: [{name: namespace, value: `+ns+`}]}
`))
	if _, err := c.Argo.Dynamic.Resource(e2etest.AnalysisTemplatesGVR).Namespace(ns).Create(t.Context(), decode(t, template), metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating the AnalysisTemplate: %v", err)
	}
	r.waitFor(t, "the first revision healthy", healthy(2))
	r.setImage(t, "registry.example/shop:v2")
	var last analysisRun
	c.Poll(t, "Argo's verdict", func(ctx context.Context) (bool, string, error) {
		run, ok, err := readAnalysisRun(ctx, c, ns)
		if err != nil || !ok {
			return false, "no AnalysisRun yet", err
		}
		last = run
		if len(run.Status.MetricResults) > 0 {
			f.serve(len(run.Status.MetricResults[0].Measurements))
		}
		return argo.AnalysisPhase(run.Status.Phase).Completed(), run.Status.Phase, nil
	})
	var ms [][2]string
	for _, m := range last.Status.MetricResults {
		for _, x := range m.Measurements {
			ms = append(ms, [2]string{x.Phase, x.Value})
		}
	}
	return verdict(last.Status.Phase, ms)
}

// gateAnalysis runs a guided canary of a Deployment whose first step is
// gated by the template's metrics, driven by rollscope's canary
// controller, feeding the series as the gate measures, until its verdict.
func gateAnalysis(t *testing.T, c *e2etest.Cluster, exporter *e2etest.Exporter, ns, template string, series []string) []string {
	f := &feed{exporter: exporter, ns: ns, series: series}
	f.serve(0)
	var tmpl argo.AnalysisTemplate
	if err := yaml.Unmarshal([]byte(template), &tmpl); err != nil {
		t.Fatalf("reading the template: %v", err)
	}
	c.Namespace(t, ns)
	d := e2etest.RollingUpdate(e2etest.Deployment(ns, "shop", 2, "registry.example/shop:v1"), intstr.FromInt32(1), intstr.FromInt32(0))
	if _, err := c.Admin.AppsV1().Deployments(ns).Create(t.Context(), d, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating the deployment: %v", err)
	}
	c.Poll(t, "deployment shop available", func(ctx context.Context) (bool, string, error) {
		got, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, "shop", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return got.Status.AvailableReplicas == 2 && got.Status.UpdatedReplicas == 2, fmt.Sprintf("%d available", got.Status.AvailableReplicas), nil
	})
	ask := canary.Ask{Container: "app", Image: "registry.example/shop:v2", Steps: []string{"50%"}, Holds: []string{"pause"},
		Gates: tmpl.Spec.Metrics, GateTemplates: []string{"error-rate"}}
	if _, err := canary.Start(t.Context(), c.Admin, canary.Target{Namespace: ns, Name: "shop"}, ask, time.Now()); err != nil {
		t.Fatalf("starting the canary: %v", err)
	}
	var st argo.AnalysisRunStatus
	c.Poll(t, "rollscope's verdict", func(ctx context.Context) (bool, string, error) {
		got, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, "shop", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		cn, ok, err := model.ReadCanary(got)
		if err != nil || !ok || cn.State.Analysis == nil {
			return false, "no analysis yet", err
		}
		st = *cn.State.Analysis
		if len(st.MetricResults) > 0 {
			f.serve(len(st.MetricResults[0].Measurements))
		}
		return st.Phase.Completed(), string(st.Phase) + " " + cn.State.Phase, nil
	})
	var ms [][2]string
	for _, m := range st.MetricResults {
		for _, x := range m.Measurements {
			ms = append(ms, [2]string{string(x.Phase), x.Value})
		}
	}
	return verdict(string(st.Phase), ms)
}
