package fidelity

import (
	"context"
	"rollscope/test/e2e/e2etest"
	"testing"
	"time"
)

// TestLiveRunsAgreeWithEmbedded plays every fidelity scenario embedded and
// on one real control plane, one after the other, and requires the traces
// to agree. A live run's namespace deletion (seconds on a real control
// plane) overlaps the next scenario: the runs' pods are pinned to their own
// hollow nodes, so they cannot meet.
func TestLiveRunsAgreeWithEmbedded(t *testing.T) {
	c := e2etest.Start(t, e2etest.Setup{Rollscope: true})
	bin, cp, client := c.Bin, c.CP, c.Admin
	// Generous: the scenarios take 10–20 s each; a loaded CI machine may
	// take several times that, but never minutes per scenario.
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()
	// previous is the last live run, still removing its namespace while
	// the next one plays: at most two runs at once.
	previous := func() error { return nil }
	wait := func() {
		if err := previous(); err != nil {
			t.Errorf("a live run did not end cleanly: %v", err)
		}
		previous = func() error { return nil }
	}
	defer wait()
	for _, name := range scenarioFiles {
		t.Run(name, func(t *testing.T) {
			s := loadScenario(t, name)
			embedded, err := PlayEmbedded(ctx, bin, s.File, 0)
			if err != nil {
				t.Fatal(err)
			}
			live, finished, err := PlayLive(ctx, bin, s, cp.AdminKubeconfig, client)
			if err != nil {
				t.Fatal(err)
			}
			wait()
			previous = finished
			requireAgree(t, s, embedded, live)
		})
	}
}
