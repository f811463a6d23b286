package argo

import (
	"testing"
)

// TestConsoleFiltersTheFleetByArgosWords: in the fleet (-A), /state:
// takes the words a Rollout's row shows — state:aborted keeps the aborted
// Rollout and not the one awaiting promotion, state:"awaiting promotion"
// the other way round.
func TestConsoleFiltersTheFleetByArgosWords(t *testing.T) {
	t.Parallel()
	c := cluster(t)
	drop := newRollout(t, c, "filter-drop", heldManifest("drop", heldImage+":v1"))
	wait := newRollout(t, c, "filter-wait", heldManifest("wait", heldImage+":v1"))
	for _, r := range []rollout{drop, wait} {
		r.settle(t, "on its first revision")
		atStep(t, r)
	}
	drop.abort(t)
	drop.waitForState(t, "aborted", func(s state) bool { return s.settled && s.Abort && s.Phase == "Degraded" })

	s := console(t, c.CP.AdminKubeconfig, "-A")
	screen := s.WaitUntil("both rows in the fleet, in Argo's words", func(screen string) bool {
		return lineWith(screen, "filter-drop", "aborted") != "" && lineWith(screen, "filter-wait", "awaiting promo") != ""
	})
	t.Logf("the fleet:\n%s", screen)

	for i, f := range []struct{ typed, kept, gone string }{
		{"filter state:aborted", "filter-drop", "filter-wait"},
		{`filter state:"awaiting promotion"`, "filter-wait", "filter-drop"},
	} {
		if i > 0 {
			// esc clears the filter kept before.
			s.Keys("Escape")
			s.WaitUntil("the filter cleared", func(screen string) bool { return lineWith(screen, "/filter state:") == "" })
		}
		s.Keys("/")
		s.Keys("-l", f.typed)
		s.Keys("Enter")
		screen = s.WaitUntil("/"+f.typed+" keeping "+f.kept+" alone", func(screen string) bool {
			return lineWith(screen, f.kept, "ro") != "" && lineWith(screen, f.gone) == "" && lineWith(screen, "is not a rollout state") == ""
		})
		t.Logf("/%s:\n%s", f.typed, screen)
	}
}
