package model_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// A node's pods may be evicted while a drain is asked for or under way, or
// while a roll with work left includes it; not once the drain is over or
// the roll has said its last word.
func TestNodeEvicting(t *testing.T) {
	for _, c := range []struct {
		name        string
		annotations map[string]string
		want        bool
	}{
		{"untouched", nil, false},
		{"drain asked for", map[string]string{model.DrainRequestAnnotation: "{}"}, true},
		{"draining", map[string]string{model.DrainRequestAnnotation: "{}", model.DrainStateAnnotation: model.DrainDraining}, true},
		{"blocked", map[string]string{model.DrainStateAnnotation: model.DrainBlocked}, true},
		{"drained", map[string]string{model.DrainRequestAnnotation: "{}", model.DrainStateAnnotation: model.DrainDrained}, false},
		{"drain failed", map[string]string{model.DrainStateAnnotation: model.DrainFailed}, false},
		{"in a running roll", map[string]string{model.RollAnnotation: "{}", model.RollStateAnnotation: model.RollRunning}, true},
		{"in a roll without a state yet", map[string]string{model.RollAnnotation: "{}"}, true},
		{"in a stopped roll", map[string]string{model.RollAnnotation: "{}", model.RollStateAnnotation: model.RollStopped}, false},
	} {
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Annotations: c.annotations}}
		if got := model.NodeEvicting(n); got != c.want {
			t.Errorf("%s: NodeEvicting = %v, want %v", c.name, got, c.want)
		}
	}
}
