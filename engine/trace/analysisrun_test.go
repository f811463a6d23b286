package trace_test

import (
	"bytes"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/trace"
	"rollscope/model/argo"
)

// An AnalysisRun gets a line per metric each time a measurement is taken
// (its counts and the latest measurement's phase, value and message) and
// when the run reaches its verdict; nothing when only what the trace does
// not show changed; one line when it is deleted.
func TestAnAnalysisRunIsTraced(t *testing.T) {
	run := func(phase, message string, measurements ...argo.Measurement) *argo.AnalysisRun {
		r := argo.MetricResult{Name: "error-rate", Phase: argo.AnalysisPhaseRunning, Measurements: measurements}
		for _, m := range measurements {
			switch m.Phase {
			case argo.AnalysisPhaseSuccessful:
				r.Count++
				r.Successful++
			case argo.AnalysisPhaseError:
				r.Error++
			}
		}
		if phase != string(argo.AnalysisPhaseRunning) {
			r.Phase = argo.AnalysisPhase(phase)
		}
		return &argo.AnalysisRun{
			ObjectMeta: metav1.ObjectMeta{Name: "web-bbb-2-1", Namespace: "shop", OwnerReferences: []metav1.OwnerReference{
				{APIVersion: "argoproj.io/v1alpha1", Kind: "Rollout", Name: "web", Controller: new(true)}}},
			Status: argo.AnalysisRunStatus{Phase: argo.AnalysisPhase(phase), Message: message, MetricResults: []argo.MetricResult{r}},
		}
	}
	ok := argo.Measurement{Phase: argo.AnalysisPhaseSuccessful, Value: "0.01"}
	failed := argo.Measurement{Phase: argo.AnalysisPhaseError, Message: "received non 2xx response code: 500"}
	// The API serves AnalysisRuns as unstructured JSON; the embedded
	// controller's own writes may carry the typed object.
	unstructuredRun := func(ar *argo.AnalysisRun) runtime.Object {
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(ar)
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{Object: obj}
		u.SetGroupVersionKind(argo.GroupVersion.WithKind("AnalysisRun"))
		return u
	}
	const verdict = `Metric "error-rate" assessed Error due to consecutiveErrors (2) > consecutiveErrorLimit (1)`
	var out bytes.Buffer
	w := trace.New(&out, trace.JSONL, start, nil)
	w.Observe(at(1), watch.Event{Type: watch.Added, Object: unstructuredRun(run("Running", "", ok))})
	again := run("Running", "", ok)
	again.Labels = map[string]string{"unrelated": "change"}
	w.Observe(at(1), watch.Event{Type: watch.Modified, Object: again})
	w.Observe(at(2), watch.Event{Type: watch.Modified, Object: run("Running", "", ok, failed)})
	w.Observe(at(12), watch.Event{Type: watch.Modified, Object: unstructuredRun(run("Error", verdict, ok, failed, failed))})
	w.Observe(at(13), watch.Event{Type: watch.Deleted, Object: run("Error", verdict, ok, failed, failed)})
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	head := `"type":"analysisrun","namespace":"shop","name":"web-bbb-2-1","owner":"rollout/web",`
	want := []string{
		`{"t":1.0,` + head + `"phase":"Running","message":"","metric":"error-rate","metricPhase":"Running","count":1,"successful":1,"failed":0,"inconclusive":0,"error":0,"measurement":"Successful","value":"0.01","measurementMessage":""}`,
		`{"t":2.0,` + head + `"phase":"Running","message":"","metric":"error-rate","metricPhase":"Running","count":1,"successful":1,"failed":0,"inconclusive":0,"error":1,"measurement":"Error","value":"","measurementMessage":"received non 2xx response code: 500"}`,
		`{"t":12.0,` + head + `"phase":"Error","message":"Metric \"error-rate\" assessed Error due to consecutiveErrors (2) > consecutiveErrorLimit (1)","metric":"error-rate","metricPhase":"Error","count":1,"successful":1,"failed":0,"inconclusive":0,"error":2,"measurement":"Error","value":"","measurementMessage":"received non 2xx response code: 500"}`,
		`{"t":13.0,"type":"analysisrun","namespace":"shop","name":"web-bbb-2-1","deleted":true}`,
	}
	if got := strings.TrimSpace(out.String()); got != strings.Join(want, "\n") {
		t.Errorf("trace:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
