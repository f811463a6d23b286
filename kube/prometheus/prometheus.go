// Package prometheus reads a guided canary's metric gates from Prometheus
// on a live cluster, as Argo Rollouts' prometheus provider reads an
// AnalysisRun's: one instant query at the address the gate names (or
// ARGO_ROLLOUTS_PROMETHEUS_ADDRESS), through Prometheus's own Go client, a
// vector's sample values or a scalar handed to the gate's conditions, and
// Prometheus's own words when it errs.
package prometheus

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"rollscope/model/argo"
)

// AddressEnv names the address a gate without one reads, as Argo's
// controller takes it.
const AddressEnv = "ARGO_ROLLOUTS_PROMETHEUS_ADDRESS"

// defaultTimeout is Argo's for a query without timeout.
const defaultTimeout = 30 * time.Second

// Metrics measures prometheus gates; its zero value is ready to use.
type Metrics struct {
	// Transport carries the queries; nil is http.DefaultTransport.
	Transport http.RoundTripper
}

// Measure is gate m's value now: a float64 for a scalar, a []float64 of a
// vector's or a matrix's samples, or Prometheus's error. A gate of another
// provider cannot be read here. template, n and images matter only to a
// rehearsal's series.
func (p Metrics) Measure(ctx context.Context, _ string, m argo.Metric, _ int, _ []string) (any, error) {
	prom, ok := argo.PrometheusOf(m)
	if !ok {
		return nil, fmt.Errorf("metric %q asks the %q provider; rollscope reads prometheus gates", m.Name, argo.ProviderName(m))
	}
	address, err := addressOf(prom)
	if err != nil {
		return nil, err
	}
	if prom.Timeout < 0 {
		return nil, errors.New("prometheus timeout should not be negative")
	}
	timeout := defaultTimeout
	if prom.Timeout > 0 {
		timeout = time.Duration(prom.Timeout) * time.Second
	}
	client, err := api.NewClient(api.Config{Address: address, RoundTripper: p.Transport})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	value, _, err := v1.NewAPI(client).Query(ctx, prom.Query, time.Now())
	if err != nil {
		return nil, err
	}
	return resultOf(value)
}

// addressOf is where gate prom's queries go, checked as Argo checks it.
func addressOf(prom argo.Prometheus) (string, error) {
	address := prom.Address
	if address == "" {
		address = os.Getenv(AddressEnv)
		if address == "" {
			return "", fmt.Errorf("prometheus address is not configured (give the gate an address, or set %s)", AddressEnv)
		}
	}
	if u, err := url.ParseRequestURI(address); err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("prometheus address %q is not is url format", address)
	}
	return address, nil
}

// resultOf is what a gate's conditions see of a query's answer, as Argo's
// provider hands it: a scalar's value, or every sample of a vector or a
// matrix in order.
func resultOf(value model.Value) (any, error) {
	switch v := value.(type) {
	case *model.Scalar:
		return float64(v.Value), nil
	case model.Vector:
		out := make([]float64, 0, len(v))
		for _, s := range v {
			if s != nil {
				out = append(out, float64(s.Value))
			}
		}
		return out, nil
	case model.Matrix:
		var out []float64
		for _, series := range v {
			if series != nil {
				for _, s := range series.Values {
					out = append(out, float64(s.Value))
				}
			}
		}
		return out, nil
	}
	return nil, errors.New("Prometheus metric type not supported")
}
