package model_test

import (
	"testing"

	"rollscope/model"
)

func TestDrainAndRollStates(t *testing.T) {
	for _, c := range []struct {
		state                      string
		drainOver, active, resumes bool
	}{
		{"", false, false, false},
		{model.DrainDraining, false, false, false},
		{model.DrainBlocked, false, false, false},
		{model.DrainDrained, true, false, false},
		{model.DrainFailed, true, false, true}, // "failed" is a drain's and a roll's
		{model.RollRunning, false, true, false},
		{model.RollPaused, false, true, false},
		{model.RollWaiting, false, true, false},
		{model.RollStopped, false, false, true},
		{model.RollFinished, false, false, false},
		{"evicting 2 pods", false, false, false}, // another tool's value
	} {
		if got := model.DrainOver(c.state); got != c.drainOver {
			t.Errorf("DrainOver(%q) = %v, want %v", c.state, got, c.drainOver)
		}
		if got := model.RollActive(c.state); got != c.active {
			t.Errorf("RollActive(%q) = %v, want %v", c.state, got, c.active)
		}
		if got := model.RollResumable(c.state); got != c.resumes {
			t.Errorf("RollResumable(%q) = %v, want %v", c.state, got, c.resumes)
		}
	}
}
