package access

import "testing"

func TestScopeNoteIsTheOneLineTheBriefPromises(t *testing.T) {
	got := scopeNote("you may not list deployments in all namespaces", "team-a")
	if want := "-A: you may not list deployments in all namespaces; showing namespace team-a"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
