package cluster_test

import (
	"testing"
)

// A paused deployment given a new image (kubectl rollout pause, then kubectl
// set image) runs no ReplicaSet of it: the view names the change pending,
// and undo must not take revision 2 for the deployment's template.
func TestRolloutPendingChangeWhilePaused(t *testing.T) {
	d := deployment("api", "api:v3", 2, "2")
	d.Spec.Paused = true
	rs1 := ownedReplicaSet(d, "v1", "1", "api:v1", 0, 0, at(0))
	rs2 := ownedReplicaSet(d, "v2", "2", "api:v2", 2, 2, at(1))
	v, _ := loaded(d, rs1, rs2).Rollout(shop, "api", at(2))
	if v.Pending != "web api:v2 → api:v3" {
		t.Errorf("Pending = %q, want the image change no ReplicaSet runs yet", v.Pending)
	}

	// Once a ReplicaSet runs the template, nothing is pending.
	rs3 := ownedReplicaSet(d, "v3", "3", "api:v3", 0, 0, at(3))
	d.Spec.Paused = false
	v, _ = loaded(d, rs1, rs2, rs3).Rollout(shop, "api", at(4))
	if v.Pending != "" {
		t.Errorf("Pending = %q with a ReplicaSet of the template", v.Pending)
	}

	// A change other than the images is named as such.
	d2 := deployment("api", "api:v2", 2, "2")
	d2.Spec.Template.Spec.Containers[0].Args = []string{"--verbose"}
	v, _ = loaded(d2, ownedReplicaSet(d2, "v2", "2", "api:v2", 2, 2, at(1))).Rollout(shop, "api", at(2))
	if v.Pending != "pod template changed (not its images)" {
		t.Errorf("Pending = %q for an args change", v.Pending)
	}
}
