package embedded_test

import (
	"strings"
	"testing"

	"rollscope/model"
)

// A scripted abort returns an in-flight rollout to its stable revision.
func TestScenarioAbortReturnsToTheStableRevision(t *testing.T) {
	sc := parse(t, "abort.yaml", smallDeployment(6, "1", "0", 0)+`
actions:
  - {at: 30s, setImage: {target: deployment/web, container: app, image: "example.com/app:v2"}}
  - {at: 33s, abort: deployment/web}
`)
	r := startRun(t, sc, 0)
	r.requireNoViolations()
	if len(r.actions) != 2 || !strings.HasSuffix(r.actions[1], ": ok") {
		t.Fatalf("actions: %v", r.actions)
	}
	r.requireComplete("web")
	d := r.deployment("web")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "example.com/app:v1" {
		t.Fatalf("after abort the template runs %s, want the stable example.com/app:v1", img)
	}
	if rev, _ := model.Revision(d); rev != 3 {
		t.Errorf("revision %d after abort, want 3 (the stable ReplicaSet re-used)", rev)
	}
}
