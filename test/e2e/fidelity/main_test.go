package fidelity

import (
	"path/filepath"
	"testing"

	"rollscope/test/e2e/rollscopebin"
)

func TestMain(m *testing.M) { rollscopebin.Main(m) }

// scenarioFiles lists the fidelity scenarios, in the order test/e2e's
// README lists them.
var scenarioFiles = []string{
	"one-at-a-time", "quarter", "surge-min-ready", "recreate", "scale-up",
	"new-image-mid-rollout", "pause-resume", "undo", "crashloop",
}

func scenarioPath(name string) string {
	return filepath.Join("..", "testdata", "fidelity", name+".yaml")
}

func loadScenario(t *testing.T, name string) *Scenario {
	t.Helper()
	s, err := LoadScenario(scenarioPath(name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// requireAgree fails the test with the differences and both traces side by
// side when two runs disagree.
func requireAgree(t *testing.T, s *Scenario, a, b *Run) {
	t.Helper()
	if diffs := Compare(s, a, b); len(diffs) > 0 {
		t.Error(s.Report(a, b, diffs))
	} else if testing.Verbose() {
		t.Logf("%s: %s and %s agree\n%s", s.File, a.Source(), b.Source(), s.SideBySide(a, b))
	}
}
