package prometheus

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"rollscope/model/argo"
	"rollscope/model/argo/analysis"
)

// BenchmarkGateMeasurement is one measurement of a gate as the canary
// controller takes it: the query sent to a Prometheus on loopback, its
// answer decoded, and the gate's condition evaluated — for one series
// (the canary's error rate) and for 100 (a per-pod latency judged with
// all()).
func BenchmarkGateMeasurement(b *testing.B) {
	for _, c := range []struct {
		series    int
		condition string
	}{{1, "result[0] < 0.05"}, {100, "all(result, # < 0.5)"}} {
		b.Run(fmt.Sprintf("series=%d", c.series), func(b *testing.B) {
			samples := make([]string, c.series)
			for i := range samples {
				samples[i] = fmt.Sprintf(`{"metric":{"pod":"web-%d"},"value":[1733000000.5,"0.0%d"]}`, i, i%10)
			}
			body := `{"status":"success","data":{"resultType":"vector","result":[` + strings.Join(samples, ",") + `]}}`
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, body)
			}))
			defer srv.Close()
			m := gate(srv.URL, "error_rate")
			m.SuccessCondition = c.condition
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				v, err := Metrics{}.Measure(ctx, "", m, 0, nil)
				if err != nil {
					b.Fatal(err)
				}
				if phase, err := analysis.Evaluate(v, m); err != nil || phase != argo.AnalysisPhaseSuccessful {
					b.Fatalf("%s, %v", phase, err)
				}
			}
		})
	}
}

// BenchmarkGateCondition is the condition alone on a decoded answer: what
// a measurement costs beyond the round trip.
func BenchmarkGateCondition(b *testing.B) {
	m := argo.Metric{Name: "error-rate", SuccessCondition: "result[0] < 0.05"}
	v := []float64{0.01}
	b.ReportAllocs()
	for b.Loop() {
		if phase, err := analysis.Evaluate(v, m); err != nil || phase != argo.AnalysisPhaseSuccessful {
			b.Fatalf("%s, %v", phase, err)
		}
	}
}
