package action

import "testing"

// K, P and A are the guided canary's: the canary dialog asks for them, and
// the other rollout keys keep the rollout dialogs.
func TestCanaryActionsAreTheCanaryDialogs(t *testing.T) {
	for kind, want := range map[Name]bool{Canary: true, Promote: true, PromoteAll: true, SetImage: false, Pause: false} {
		if s, _ := Lookup(kind); s.Canary != want {
			t.Errorf("%s: Canary = %v", kind, s.Canary)
		}
	}
}

// Every action with a dialog of its own names it.
func TestDialogsHaveTitles(t *testing.T) {
	for _, n := range []Name{SetImage, SetEnv, Scale, Restart, Pause, Resume, Undo, Abort, Cordon, Uncordon, Drain, RollGroup, StopRoll} {
		if s, _ := Lookup(n); s.Title == "" {
			t.Errorf("%s has no Title", n)
		}
	}
}
