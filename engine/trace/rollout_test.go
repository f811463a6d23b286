package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/trace"
	"rollscope/model/argo"
)

// A Rollout, which the API serves as unstructured JSON, gets its own line
// (its step, hashes, phase and message), and its ReplicaSets carry Argo's
// revision annotation as their revision.
func TestARolloutIsTraced(t *testing.T) {
	ro := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "generation": int64(2)},
		"spec": map[string]any{"replicas": int64(4), "strategy": map[string]any{"canary": map[string]any{
			"steps": []any{map[string]any{"setWeight": int64(25)}, map[string]any{"pause": map[string]any{}}}}}},
		"status": map[string]any{"observedGeneration": "2", "currentStepIndex": int64(1), "stableRS": "aaa", "currentPodHash": "bbb",
			"replicas": int64(4), "updatedReplicas": int64(1), "readyReplicas": int64(4), "availableReplicas": int64(4),
			"phase": "Paused", "message": "CanaryPauseStep"},
	}}
	rs := replicaSet("web-bbb", "", 1, 1, 1, 1)
	rs.Annotations = map[string]string{argo.RevisionAnnotation: "2"}

	var out bytes.Buffer
	w := trace.New(&out, trace.JSONL, start, nil)
	w.Observe(at(1), watch.Event{Type: watch.Added, Object: ro})
	w.Observe(at(1), watch.Event{Type: watch.Added, Object: rs})
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		`{"t":1.0,"type":"rollout","namespace":"shop","name":"web","spec":4,"replicas":4,"ready":4,"available":4,"updated":1,"step":1,"stableRS":"aaa","currentPodHash":"bbb","phase":"Paused","message":"CanaryPauseStep"}`,
		`"name":"web-bbb","owner":"deployment/frontend","revision":2,`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the trace has no %s:\n%s", want, got)
		}
	}
}
