package prometheus

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"rollscope/model/argo"
)

// gate is a prometheus gate asking query of address.
func gate(address, query string) argo.Metric {
	p, _ := json.Marshal(map[string]argo.Prometheus{"prometheus": {Address: address, Query: query}})
	return argo.Metric{Name: "error-rate", Provider: p}
}

// Each shape of Prometheus's answer reaches the conditions as Argo's
// provider hands it, and each of its errors in its own words, so that the
// step's evidence says what Prometheus said.
func TestMeasureReadsPrometheusAnswersAsArgoDoes(t *testing.T) {
	answers := map[string]struct {
		code int
		body string
	}{
		"vector":  {200, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"pod":"a"},"value":[1,"0.03"]},{"metric":{"pod":"b"},"value":[1,"0.5"]}]}}`},
		"scalar":  {200, `{"status":"success","data":{"resultType":"scalar","result":[1,"7"]}}`},
		"matrix":  {200, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"1"],[2,"2"]]}]}}`},
		"nothing": {200, `{"status":"success","data":{"resultType":"vector","result":[]}}`},
		"bad":     {400, `{"status":"error","errorType":"bad_data","error":"invalid parameter \"query\": 1:6: parse error: unexpected end of input"}`},
		"down":    {503, `Service Unavailable`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/query" {
			http.NotFound(w, r)
			return
		}
		a := answers[r.FormValue("query")]
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.code)
		fmt.Fprint(w, a.body)
	}))
	defer srv.Close()
	for _, c := range []struct {
		query string
		want  any
		err   string
	}{
		{"vector", []float64{0.03, 0.5}, ""},
		{"scalar", 7.0, ""},
		{"matrix", []float64{1, 2}, ""},
		{"nothing", []float64{}, ""},
		{"bad", nil, `bad_data: invalid parameter "query": 1:6: parse error: unexpected end of input`},
		{"down", nil, "server_error: server error: 503"},
	} {
		got, err := Metrics{}.Measure(context.Background(), "", gate(srv.URL, c.query), 0, nil)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %q", c.query, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %#v, %v; want %#v", c.query, got, err, c.want)
		}
	}
}

// A gate rollscope cannot read is refused in one line naming what is
// wrong, as Argo's provider refuses it; an address nothing listens on is
// the dialer's own words.
func TestMeasureRefusesGatesItCannotRead(t *testing.T) {
	t.Setenv(AddressEnv, "")
	web, _ := json.Marshal(map[string]any{"web": map[string]string{"url": "http://x"}})
	for _, c := range []struct {
		m    argo.Metric
		want string
	}{
		{gate("", "up"), "prometheus address is not configured (give the gate an address, or set ARGO_ROLLOUTS_PROMETHEUS_ADDRESS)"},
		{gate("prometheus:9090", "up"), `prometheus address "prometheus:9090" is not is url format`},
		{argo.Metric{Name: "hits", Provider: web}, `metric "hits" asks the "web" provider; rollscope reads prometheus gates`},
		{gate("http://127.0.0.1:1", "up"), "connection refused"},
	} {
		_, err := Metrics{}.Measure(context.Background(), "", c.m, 0, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.m.Name, err, c.want)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"status":"success","data":{"resultType":"scalar","result":[1,"1"]}}`)
	}))
	defer srv.Close()
	t.Setenv(AddressEnv, srv.URL)
	if got, err := (Metrics{}).Measure(context.Background(), "", gate("", "up"), 0, nil); err != nil || got != 1.0 {
		t.Errorf("with %s set: %v, %v; want 1", AddressEnv, got, err)
	}
}
