package model

import (
	"slices"
	"testing"
)

func TestGroupBlockedSaysEachBudgetOnce(t *testing.T) {
	got := GroupBlocked([]string{
		"default/api-1: PodDisruptionBudget default/api allows 0 disruptions (6 healthy, 6 needed)",
		"default/api-2: PodDisruptionBudget default/api allows 0 disruptions (6 healthy, 6 needed)",
		"default/web-1: PodDisruptionBudget default/web allows 0 disruptions (1 healthy, 1 needed)",
	})
	want := []string{
		"PodDisruptionBudget default/api allows 0 disruptions (6 healthy, 6 needed): default/api-1, default/api-2",
		"PodDisruptionBudget default/web allows 0 disruptions (1 healthy, 1 needed): default/web-1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
