package argo

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/test/e2e/e2etest"
)

// TestConsoleShowsTheFailingMeasurement: the canary's analysis measures an
// error rate of 0.42 against result < 0.05; once Argo aborts it, the
// fleet's row says analysis failed and shows the measured 0.42.
func TestConsoleShowsTheFailingMeasurement(t *testing.T) {
	t.Parallel()
	c := cluster(t)
	metric := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"errorRate": 0.42}`)
	}))
	defer metric.Close()

	const ns = "tmux-analysis"
	manifest := strings.ReplaceAll(analysedManifest, "checkout", "basket")
	r := newRollout(t, c, ns, manifest)
	tmpl := decode(t, errorRateTemplate(metric.URL+"/error-rate"))
	if _, err := c.Argo.Dynamic.Resource(e2etest.AnalysisTemplatesGVR).Namespace(ns).Create(t.Context(), tmpl, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating the AnalysisTemplate: %v", err)
	}
	first := r.waitFor(t, "the first revision healthy", healthy(5))
	r.setImage(t, "registry.example/basket:v2")
	r.waitFor(t, "aborted by its analysis", func(s snapshot) bool {
		return s.Phase == "Degraded" && s.Abort && s.StableRS == first.StableRS && s.CurrentPodHash != first.StableRS
	})

	s := console(t, c.CP.AdminKubeconfig, "-A")
	// Keys typed before the fleet is drawn are not the fleet's.
	s.WaitUntil("basket's fleet row", func(screen string) bool { return lineWith(screen, ns, "basket") != "" })
	s.Keys("/")
	s.Keys("-l", "basket")
	s.Keys("Enter")
	screen := s.WaitUntil("basket's row: analysis failed with the measured 0.42", func(screen string) bool {
		return lineWith(screen, ns, "basket", "analysis failed") != "" && lineWith(screen, "canary-abort") == "" &&
			lineWith(screen, ns+" ro/basket:", "metric error-rate = 0.42", "result < 0.05") != ""
	})
	t.Logf("the fleet:\n%s", screen)
	s.Keys("Enter")
	t.Logf("basket's page:\n%s", s.WaitFor("replica sets"))
}
