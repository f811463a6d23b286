package argo

import (
	"encoding/json"
	"sort"
)

// Prometheus is a metric's prometheus provider, as Argo's
// PrometheusMetric spells it.
type Prometheus struct {
	Address string `json:"address"`
	Query   string `json:"query"`
	// Timeout is the query's timeout in seconds (Argo's default: 30).
	Timeout int64 `json:"timeout,omitempty"`
}

// PrometheusOf is m's prometheus provider; false when it names another
// (or none).
func PrometheusOf(m Metric) (Prometheus, bool) {
	var p struct {
		Prometheus *Prometheus `json:"prometheus"`
	}
	if len(m.Provider) == 0 || json.Unmarshal(m.Provider, &p) != nil || p.Prometheus == nil {
		return Prometheus{}, false
	}
	return *p.Prometheus, true
}

// ProviderName is the name of m's provider ("prometheus", "web", "job"),
// "" when it has none: what the console says it asks.
func ProviderName(m Metric) string {
	var providers map[string]json.RawMessage
	if json.Unmarshal(m.Provider, &providers) != nil {
		return ""
	}
	names := make([]string, 0, len(providers))
	for n := range providers {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}
