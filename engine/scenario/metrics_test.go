package scenario_test

import (
	"strings"
	"testing"

	"rollscope/engine/scenario"
)

const templates = `objects: |
  apiVersion: argoproj.io/v1alpha1
  kind: AnalysisTemplate
  metadata: {name: error-rate}
  spec:
    metrics:
    - name: error-rate
      interval: 2s
      successCondition: result < 0.05
      provider: {prometheus: {address: "http://prometheus:9090", query: "sum(rate(errors[1m]))"}}
    - name: latency
      successCondition: result < 0.3
      provider: {web: {url: "http://metrics/latency"}}
`

// A scenario says what each AnalysisTemplate metric measures: a value
// per measurement (numbers as a JSON provider returns them, provider
// errors too), or a value by the image the canary's pods run.
func TestAScenarioDeclaresMetricSeries(t *testing.T) {
	sc, err := scenario.Parse("t.yaml", []byte(templates+`metrics:
  - {metric: error-rate, values: [0.01, 2, {error: "connection refused"}]}
  - {metric: error-rate/latency, byImage: {"*:v2": 0.4, "*": 0.1}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Metrics) != 2 {
		t.Fatalf("metrics %+v", sc.Metrics)
	}
	e, l := sc.Metrics[0], sc.Metrics[1]
	if e.Name() != "error-rate" || len(e.Values) != 3 || e.Values[0].Value != 0.01 || e.Values[1].Value != 2.0 || e.Values[2].Error != "connection refused" {
		t.Errorf("error-rate read as %+v", e)
	}
	if v, err := e.At(7, nil); v != nil || err == nil || err.Error() != "connection refused" {
		t.Errorf("the last value repeats: %v %v", v, err)
	}
	if l.Name() != "error-rate/latency" || len(l.ByImage) != 2 || l.ByImage[0].Match != "*:v2" {
		t.Errorf("latency read as %+v", l)
	}
	if v, _ := l.At(0, []string{"shop/checkout:v2"}); v != 0.4 {
		t.Errorf("latency on v2 %v", v)
	}
}

// A metric without a series, a series for no metric, or a series that
// says nothing is refused at its line with what to write.
func TestBadMetricSeriesAreRefusedWithTheirLine(t *testing.T) {
	for _, c := range []struct{ name, metrics, want string }{
		{"a metric with no series", "metrics:\n  - {metric: error-rate, values: [0.01]}\n",
			`t.yaml:4: AnalysisTemplate "error-rate" has metric "latency", and the scenario says nothing of what it measures (the embedded cluster asks no provider: add under metrics: - {metric: latency, values: [0.01]})`},
		{"a series for no metric", "metrics:\n  - {metric: error-rate, values: [0.01]}\n  - {metric: latency, values: [0.1]}\n  - {metric: saturation, values: [1]}\n",
			`t.yaml:17: metrics[2] is for metric "saturation", which no AnalysisTemplate of the scenario has (its metrics: error-rate/error-rate, error-rate/latency)`},
		{"a series of another template", "metrics:\n  - {metric: other/error-rate, values: [0.01]}\n",
			`t.yaml:15: metrics[0] is for metric "other/error-rate", which no AnalysisTemplate`},
		{"no values", "metrics:\n  - {metric: error-rate}\n",
			`t.yaml:15: metrics[0] says nothing of what "error-rate" measures (add values: [0.01, 0.02] or byImage: {"*": 0.01})`},
		{"empty values", "metrics:\n  - {metric: error-rate, values: []}\n", `t.yaml:15: metrics[0].values is empty`},
		{"both", "metrics:\n  - {metric: error-rate, values: [1], byImage: {\"*\": 1}}\n", `t.yaml:15: metrics[0] has both values and byImage (keep one)`},
		{"a repeat", "metrics:\n  - {metric: error-rate, values: [1]}\n  - {metric: error-rate, values: [2]}\n", `t.yaml:16: metrics[1] repeats metric "error-rate" (first on line 15; keep one)`},
		{"an unknown key", "metrics:\n  - {metric: error-rate, value: 1}\n", `t.yaml:15: unknown key "value" in metrics[0] (known: metric, values, byImage)`},
		{"an empty error", "metrics:\n  - {metric: error-rate, values: [{error: \"\"}]}\n", `t.yaml:15: metrics[0].values[0].error must say what failed`},
	} {
		_, err := scenario.Parse("t.yaml", []byte(templates+c.metrics))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}

// An AnalysisTemplate rollscope cannot run as Argo does is refused at the
// field.
func TestUnrunnableAnalysisTemplatesAreRefused(t *testing.T) {
	for _, c := range []struct{ name, spec, want string }{
		{"no metrics", "spec: {metrics: []}", `t.yaml:5: AnalysisTemplate "t" has no metrics`},
		{"a bad interval", "spec: {metrics: [{name: m, interval: often}]}", `t.yaml:5: AnalysisTemplate "t": spec.metrics[0].interval "often" is not a duration`},
		{"a dry run", "spec: {metrics: [{name: m}], dryRun: [{metricName: m}]}", `t.yaml:5: AnalysisTemplate "t" has a dryRun`},
		{"two metrics of a name", "spec: {metrics: [{name: m}, {name: m}]}", `t.yaml:5: AnalysisTemplate "t" has two metrics named "m"`},
	} {
		_, err := scenario.Parse("t.yaml", []byte("objects: |\n  apiVersion: argoproj.io/v1alpha1\n  kind: AnalysisTemplate\n  metadata: {name: t}\n  "+c.spec+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}

// A Rollout whose analysis names a template the scenario does not declare
// is refused at the Rollout's name.
func TestAnAnalysisOfAnUndeclaredTemplateIsRefused(t *testing.T) {
	_, err := scenario.Parse("t.yaml", []byte(`objects: |
  apiVersion: argoproj.io/v1alpha1
  kind: Rollout
  metadata: {name: checkout}
  spec:
    selector: {matchLabels: {app: checkout}}
    template:
      metadata: {labels: {app: checkout}}
      spec: {containers: [{name: web, image: "shop/checkout:v1"}]}
    strategy: {canary: {steps: [{setWeight: 20}, {analysis: {templates: [{templateName: error-rate}]}}]}}
`))
	want := `t.yaml:4: Rollout "checkout" runs AnalysisTemplate "error-rate", which the scenario does not declare`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
