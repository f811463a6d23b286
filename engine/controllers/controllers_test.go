package controllers_test

import (
	"testing"

	"rollscope/engine/controllers"
	"rollscope/model/kind"
)

// TestEveryKindHasItsController: a registry kind the embedded cluster
// serves without a controller would sit still there and in every
// rehearsal. A custom resource's kind (Argo's Rollout) is not served there
// yet, and needs none.
func TestEveryKindHasItsController(t *testing.T) {
	for _, e := range kind.Builtin() {
		w, ok := controllers.For(e.Kind)
		if !ok {
			t.Errorf("%s has no controller", e.Kind)
			continue
		}
		if w.Name != string(e.Kind)+"-controller" {
			t.Errorf("%s's controller runs as %q, want %q as upstream names it", e.Kind, w.Name, string(e.Kind)+"-controller")
		}
	}
	if _, ok := controllers.For(""); ok {
		t.Error(`For("") found a controller: the ReplicaSet controller belongs to no kind`)
	}
}
