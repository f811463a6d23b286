package controllers_test

import (
	"testing"

	"rollscope/engine/controllers"
	"rollscope/model/kind"
)

// TestEveryKindHasItsController: a registry kind the embedded cluster
// serves without a controller would sit still there and in every
// rehearsal. Each runs under the name its upstream gives it: Argo's
// controller records its events as rollouts-controller.
func TestEveryKindHasItsController(t *testing.T) {
	for _, e := range kind.All() {
		w, ok := controllers.For(e.Kind)
		if !ok {
			t.Errorf("%s has no controller", e.Kind)
			continue
		}
		want := string(e.Kind) + "-controller"
		if e.Kind == kind.Rollout {
			want = "rollouts-controller"
		}
		if w.Name != want {
			t.Errorf("%s's controller runs as %q, want %q as upstream names it", e.Kind, w.Name, want)
		}
	}
	if _, ok := controllers.For(""); ok {
		t.Error(`For("") found a controller: the ReplicaSet controller belongs to no kind`)
	}
}
