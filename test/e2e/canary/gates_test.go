package canary

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/dynamic"

	"rollscope/engine/canary"
	"rollscope/engine/perform"
	"rollscope/kube/objects"
	"rollscope/kube/prometheus"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/argo"
	"rollscope/test/e2e/e2etest"
)

// errorRateGate is a gate reading the canary's own error rate from the
// Prometheus at address, count measurements two seconds apart.
func errorRateGate(address string, count, errorLimit int32) argo.Metric {
	provider, _ := json.Marshal(map[string]argo.Prometheus{"prometheus": {Address: address,
		Query: `error_rate{namespace="{{args.namespace}}",pod_template_hash="{{args.canary-hash}}"}`}})
	n, limit := intstr.FromInt32(count), intstr.FromInt32(errorLimit)
	return argo.Metric{Name: "error-rate", Interval: "2s", Count: &n, SuccessCondition: "result[0] < 0.05",
		ConsecutiveErrorLimit: &limit, Provider: provider}
}

// A guided canary whose gate reads a real Prometheus, on the real
// Deployment controller: a canary whose pods report a low error rate
// passes its gate and finishes; one whose pods report a high one is held
// at step 1 with the metric and its values named; and when Prometheus
// goes down mid-step, the errors count up to consecutiveErrorLimit and the
// step is held as inconclusive, saying the metrics source is down — never
// passed, never advanced.
func TestGatedCanaryReadsARealPrometheus(t *testing.T) {
	c := startCluster(t)
	exporter, prom := c.MetricGates(t)

	// start begins a gated canary of deployment web in ns whose pods
	// report rate, and returns its template hash.
	start := func(t *testing.T, ns string, gate argo.Metric, rate float64) {
		d := c.web(t, ns, 4, intstr.FromInt32(1), intstr.FromInt32(0), 0)
		ask := canary.Ask{Container: "app", Image: newImage, Steps: []string{"1", "50%"}, Holds: []string{"2s"}, Gates: []argo.Metric{gate}}
		cn, _, err := canary.Plan(d, ask, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		exporter.Set(fmt.Sprintf(`error_rate{namespace=%q,pod_template_hash=%q}`, ns, cn.Plan.Template), rate)
		if _, err := canary.Start(t.Context(), c.Admin, canary.Target{Namespace: ns, Name: "web"}, ask, time.Now()); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("bad input", func(t *testing.T) {
		ns := "gates-bad"
		before := c.web(t, ns, 4, intstr.FromInt32(1), intstr.FromInt32(0), 0)
		// As the console connects: custom resources reachable too.
		dyn, err := dynamic.NewForConfig(c.CP.AdminConfig())
		if err != nil {
			t.Fatal(err)
		}
		acts := perform.New(perform.Config{Client: objects.WithDynamic(c.Admin, dyn), Metrics: prometheus.Metrics{}})
		exporter.Set(`error_rate{namespace="gates-bad"}`, 0.01)
		gate := func(address, query, condition string) argo.Metric {
			m := errorRateGate(address, 3, 4)
			p, _ := json.Marshal(map[string]argo.Prometheus{"prometheus": {Address: address, Query: query}})
			m.Provider, m.SuccessCondition = p, condition
			return m
		}
		ok := `error_rate{namespace="gates-bad"}`
		for _, tc := range []struct {
			name      string
			gates     []argo.Metric
			templates []string
			want      string
		}{
			{"unreachable", []argo.Metric{gate("http://127.0.0.1:1", ok, "result[0] < 0.05")}, nil, "metric gate error-rate cannot be read: Post \"http://127.0.0.1:1/api/v1/query\": dial tcp 127.0.0.1:1: connect: connection refused — nothing was sent"},
			{"syntax", []argo.Metric{gate(prom.URL, "error_rate{", "result[0] < 0.05")}, nil, `metric gate error-rate cannot be read: bad_data: invalid parameter "query": 1:12: parse error: unexpected end of input inside braces — nothing was sent`},
			{"no sample", []argo.Metric{gate(prom.URL, `error_rate{namespace="nowhere"}`, "result[0] < 0.05")}, nil, "metric gate error-rate: its query returns no samples now"},
			{"condition", []argo.Metric{gate(prom.URL, ok, "result[0] <")}, nil, "metric gate error-rate: "},
			// This control plane runs no Argo: the template cannot be there.
			{"template", nil, []string{"error-rate"}, `this cluster serves no AnalysisTemplates (Argo Rollouts' CRDs are not installed): give a file holding one (gates.yaml) instead of "error-rate"`},
		} {
			r := action.Request{Action: action.Canary, Namespace: ns, Name: "web", Container: "app", Image: newImage,
				Canary: action.CanarySettings{Steps: []string{"1"}, Holds: []string{"pause"}, Gates: tc.gates, Templates: tc.templates}}
			_, err := acts.PlanGates(t.Context(), r)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v; want one line with %q", tc.name, err, tc.want)
			}
		}
		after, err := c.Admin.AppsV1().Deployments(ns).Get(t.Context(), "web", metav1.GetOptions{})
		if err != nil || after.Generation != before.Generation || model.HasCanaryAnnotations(after) {
			t.Errorf("the refused plans changed the deployment: generation %d → %d, canary %v (%v)", before.Generation, after.Generation, model.HasCanaryAnnotations(after), err)
		}
	})

	t.Run("healthy", func(t *testing.T) {
		t.Parallel()
		ns := "gates-healthy"
		start(t, ns, errorRateGate(prom.URL, 3, 4), 0.01)
		var measured string
		c.Poll(t, "the healthy canary through its gates and finished", func(ctx context.Context) (bool, string, error) {
			d, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, "", err
			}
			if cn, ok, _ := model.ReadCanary(d); ok {
				if cn.State.Phase == model.CanaryFailed || cn.State.Phase == model.CanaryInconclusive {
					return false, "", fmt.Errorf("the healthy canary was held: %s", cn.State.Gate)
				}
				if a := cn.State.Analysis; a != nil && len(a.MetricResults) > 0 && len(a.MetricResults[0].Measurements) > 0 {
					measured = a.MetricResults[0].Measurements[0].Value
				}
				return false, fmt.Sprintf("step %d %s", cn.State.Step, cn.State.Phase), nil
			}
			s := d.Status
			return s.UpdatedReplicas == 4 && s.AvailableReplicas == 4 && s.Replicas == 4, fmt.Sprintf("%d updated of 4", s.UpdatedReplicas), nil
		})
		if measured != "[0.01]" {
			t.Errorf("the gate measured %q, want Prometheus's [0.01]", measured)
		}
	})

	t.Run("failing", func(t *testing.T) {
		t.Parallel()
		ns := "gates-failing"
		start(t, ns, errorRateGate(prom.URL, 3, 4), 0.12)
		cn := c.heldAt(t, ns, model.CanaryFailed)
		if cn.State.Step != 1 || !strings.Contains(cn.State.Gate, "error-rate [0.12]") || !strings.Contains(cn.State.Gate, "result[0] < 0.05") {
			t.Errorf("failed at step %d with %q; want step 1 naming error-rate [0.12] against its condition", cn.State.Step, cn.State.Gate)
		}
	})

	t.Run("source down", func(t *testing.T) {
		ns := "gates-down"
		// A second Prometheus, so that stopping it leaves the others'.
		down := e2etest.StartPrometheus(t, exporter, patience)
		start(t, ns, errorRateGate(down.URL, 20, 2), 0.01)
		c.Poll(t, "the first measurement taken", func(ctx context.Context) (bool, string, error) {
			cn := c.canaryIn(t, ns)
			a := cn.State.Analysis
			return a != nil && len(a.MetricResults) > 0 && a.MetricResults[0].Count > 0, fmt.Sprintf("step %d %s", cn.State.Step, cn.State.Phase), nil
		})
		down.Stop()
		cn := c.heldAt(t, ns, model.CanaryInconclusive)
		if cn.State.Step != 1 || !strings.HasPrefix(cn.State.Gate, "metrics source down — ") || !strings.Contains(cn.State.Gate, "connection refused") {
			t.Errorf("held at step %d with %q; want step 1, the metrics source down and the dialer's words", cn.State.Step, cn.State.Gate)
		}
		if r := cn.State.Analysis.MetricResults[0]; r.ConsecutiveError != 3 {
			t.Errorf("%d errors in a row before the hold, want 3 (> consecutiveErrorLimit 2)", r.ConsecutiveError)
		}
	})
}

// heldAt waits until the canary in ns is in phase, and it never advances
// past step 1 on the way.
func (c *cluster) heldAt(t *testing.T, ns, phase string) model.Canary {
	t.Helper()
	var cn model.Canary
	c.Poll(t, "the canary held: "+phase, func(ctx context.Context) (bool, string, error) {
		cn = c.canaryIn(t, ns)
		if cn.State.Step > 1 {
			return false, "", fmt.Errorf("the canary advanced to step %d", cn.State.Step)
		}
		return cn.State.Phase == phase, fmt.Sprintf("step %d %s %s", cn.State.Step, cn.State.Phase, cn.State.Gate), nil
	})
	return cn
}

// canaryIn reads the canary of deployment web in ns.
func (c *cluster) canaryIn(t *testing.T, ns string) model.Canary {
	t.Helper()
	d, err := c.Admin.AppsV1().Deployments(ns).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cn, ok, err := model.ReadCanary(d)
	if err != nil || !ok {
		t.Fatalf("deployment web in %s runs no canary (%v)", ns, err)
	}
	return cn
}
