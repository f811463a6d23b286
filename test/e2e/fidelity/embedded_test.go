package fidelity

import (
	"bytes"
	"testing"

	"rollscope/test/e2e/rollscopebin"
)

// Two embedded runs with different jitter seeds move pods at different
// times, so their traces differ, yet every comparison the suite makes
// holds: what the suite compares does not depend on timing.
func TestEmbeddedRunsAgreeAcrossSeeds(t *testing.T) {
	bin := rollscopebin.Path(t)
	for _, name := range scenarioFiles {
		t.Run(name, func(t *testing.T) {
			s := loadScenario(t, name)
			a, err := PlayEmbedded(t.Context(), bin, s.File, 0)
			if err != nil {
				t.Fatal(err)
			}
			b, err := PlayEmbedded(t.Context(), bin, s.File, 99)
			if err != nil {
				t.Fatal(err)
			}
			b.Trace.Source = "seed 99"
			if bytes.Equal(a.Trace.Raw, b.Trace.Raw) {
				t.Fatalf("seeds 1 and 99 gave the same trace: the scenario has no jitter to vary")
			}
			requireAgree(t, s, a, b)
			if a.Trace.End() != "quiescent" {
				t.Errorf("the run ended %q, want quiescent (every rollout finished)", a.Trace.End())
			}
		})
	}
}
