package perform_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/analysisrun"
	"rollscope/engine/perform"
	"rollscope/model/action"
	"rollscope/model/argo"
)

const gatesFile = `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata: {name: error-rate}
spec:
  args: [{name: canary-hash}]
  metrics:
  - name: error-rate
    interval: 30s
    count: 4
    successCondition: result[0] < 0.05
    provider:
      prometheus: {address: "http://prometheus:9090", query: 'rate(errors{pod_template_hash="{{args.canary-hash}}"}[1m])'}
`

// gatesRequest is a canary of web to a:2 gated by templates.
func gatesRequest(templates ...string) action.Request {
	return action.Request{Action: action.Canary, Namespace: "default", Name: "web", Container: "app", Image: "a:2",
		Canary: action.CanarySettings{Steps: []string{"1"}, Holds: []string{"pause"}, Templates: templates}}
}

// On a cluster without Argo's CRDs the operator keeps the gates in a file:
// the plan reads it, fills the canary's pod-template hash into the query
// and shows the gate's first reading; a file rollscope cannot use is one
// line naming it and what to write instead.
func TestPlanGatesReadsAGatesFile(t *testing.T) {
	client, _ := memCluster(t, web())
	// Rolled out: a canary starts only from there.
	d, err := client.AppsV1().Deployments("default").Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2}
	if _, err := client.AppsV1().Deployments("default").UpdateStatus(context.Background(), d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("gates.yaml", gatesFile)
	metrics := analysisrun.SeriesMetrics{{Metric: "error-rate", Values: []analysisrun.Value{{Value: []float64{0.01}}}}}
	acts := perform.New(perform.Config{Client: client, Metrics: metrics})
	got, err := acts.PlanGates(context.Background(), gatesRequest(good))
	if err != nil || len(got) != 1 {
		t.Fatalf("%v, %v", got, err)
	}
	g := got[0]
	if g.Metric != "error-rate" || g.Value != "[0.01]" || g.Phase != argo.AnalysisPhaseSuccessful ||
		strings.Contains(g.Query, "{{") || !strings.Contains(g.Query, `pod_template_hash="`) || g.Schedule != "every 30s, 4 measurements once the step's pods are ready" {
		t.Errorf("the file's gate reads %+v", g)
	}

	for _, c := range []struct{ file, body, want string }{
		{"missing.yaml", "", "cannot read the canary's gates: open " + filepath.Join(dir, "missing.yaml") + ": no such file or directory"},
		{"deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n", `deploy.yaml holds kind "Deployment"; the canary's gates file holds an AnalysisTemplate`},
		{"empty.yaml", "kind: AnalysisTemplate\nspec: {metrics: []}\n", "empty.yaml has no spec.metrics to gate the canary with"},
		{"garbage.yaml", "kind: [", "garbage.yaml is no AnalysisTemplate rollscope can read"},
		{"dry.yaml", strings.Replace(gatesFile, "  metrics:", "  dryRun: [{metricName: error-rate}]\n  metrics:", 1), "has a dryRun or measurementRetention, which rollscope's gates do not run"},
	} {
		path := filepath.Join(dir, c.file)
		if c.body != "" {
			path = write(c.file, c.body)
		}
		_, err := acts.PlanGates(context.Background(), gatesRequest(path))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line with %q", c.file, err, c.want)
		}
	}
}
