package canary

import (
	"context"

	"rollscope/model/argo"
)

// Metrics takes a metric gate's measurements: a live console's asks the
// Prometheus its provider names (kube/prometheus), the embedded cluster's
// reads the scenario's series (engine/analysisrun.SeriesMetrics). The canary
// controller and the plan's check take theirs through this one interface.
type Metrics interface {
	// Measure is gate m's (its {{args.*}} already filled) nth measurement
	// (0-based, errors counted) while the canary's pods run images, m
	// taken from template ("" when written out): the value Argo's provider
	// hands its conditions (a float64 for a scalar, a []float64 for a
	// vector), or the provider's own error.
	Measure(ctx context.Context, template string, m argo.Metric, n int, images []string) (any, error)
}
