// Package analysisrun is the embedded cluster's AnalysisRun controller:
// it takes an Argo AnalysisRun's measurements when Argo's controller would
// (model/argo/analysis), answering every metric, whatever its provider,
// from the series the scenario declares, and writes the status, messages
// and events Argo's controller writes.
package analysisrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"rollscope/engine/kubelet"
	"rollscope/model/argo"
)

// Series is what one metric measures in the embedded cluster, as a
// scenario declares it: a value per measurement (the last repeating), or
// a value by the image the canary's pods run.
type Series struct {
	// Template is the AnalysisTemplate the metric is in; "" for the metric
	// of that name in any template.
	Template, Metric string
	// Values are taken one per measurement, the last repeating.
	Values []Value
	// ByImage are tried in order against the images the canary's pods
	// run; the first glob that matches one of them gives the value.
	ByImage []ImageValue
	// Line is where the series is written, for errors.
	Line int
}

// Value is one measurement's outcome: a value (as a JSON provider would
// return it: numbers are float64) or the provider's error.
type Value struct {
	Value any
	Error string
}

// ImageValue is a value for the pods whose image matches Match.
type ImageValue struct {
	Match string
	Value Value
}

// Name is how the scenario names the series: METRIC or TEMPLATE/METRIC.
func (s Series) Name() string {
	if s.Template == "" {
		return s.Metric
	}
	return s.Template + "/" + s.Metric
}

// Find is the series of metric in template: the one naming both, else the
// one naming the metric alone; false when there is none.
func Find(all []Series, template, metric string) (Series, bool) {
	var loose *Series
	for i, s := range all {
		switch {
		case s.Metric != metric:
		case s.Template == template:
			return s, true
		case s.Template == "" && loose == nil:
			loose = &all[i]
		}
	}
	if loose != nil {
		return *loose, true
	}
	return Series{}, false
}

// errNoImage is a byImage series's answer when no glob matches the pods'
// images: the provider returns nothing.
var errNoImage = errors.New("no value for the images the pods run")

// At is the series' nth measurement (0-based) while the pods run images.
func (s Series) At(n int, images []string) (any, error) {
	v := Value{Error: errNoImage.Error()}
	switch {
	case len(s.Values) > 0:
		v = s.Values[min(n, len(s.Values)-1)]
	default:
		v = s.byImage(images, v)
	}
	if v.Error != "" {
		return nil, errors.New(v.Error)
	}
	return v.Value, nil
}

func (s Series) byImage(images []string, none Value) Value {
	for _, iv := range s.ByImage {
		for _, img := range images {
			if kubelet.Glob(iv.Match, img) {
				return iv.Value
			}
		}
	}
	return none
}

// Normalize turns a decoded YAML value into what a JSON provider returns
// (Argo's web provider decodes its body with encoding/json): numbers
// float64, maps keyed by string.
func Normalize(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// SeriesMetrics answers a guided canary's metric gates from the scenario's
// series, as the embedded cluster has no Prometheus to ask: the series of
// the gate's metric in the template it came from, else the one naming the
// metric alone. It implements engine/canary.Metrics.
type SeriesMetrics []Series

// Measure implements engine/canary.Metrics.
func (s SeriesMetrics) Measure(_ context.Context, template string, m argo.Metric, n int, images []string) (any, error) {
	if found, ok := Find(s, template, m.Name); ok {
		return found.At(n, images)
	}
	return nil, fmt.Errorf("the scenario gives no series for metric %q (add under metrics: - {metric: %s, values: [0.01]})", m.Name, m.Name)
}
