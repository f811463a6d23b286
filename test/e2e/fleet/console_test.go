package fleet

import (
	"regexp"
	"strings"
	"testing"

	"rollscope/internal/tmuxtest"
	"rollscope/model/cluster"
)

// Wide enough that no column of the fleet is cut.
const width, height = 220, 50

// TestConsoleAllNamespaces: `rollscope --kubeconfig … -A` opens on the
// fleet; every row's state word is the API's, the failed rollout is the
// first row; `/state:paused` keeps the paused one only; enter opens its
// rollout view and esc comes back to the fleet.
func TestConsoleAllNamespaces(t *testing.T) {
	c := fleetCluster(t)
	s := c.console(t, c.cp.AdminKubeconfig, "-A")
	c.agrees(t, "the console's fleet", fleet, func() map[string]shown { return screenRows(running(t, s)) })

	screen := s.Screen()
	if first := firstRow(screen); first != "ledger" {
		t.Errorf("the first row is %q, want the failed rollout, ledger:\n%s", first, screen)
	}

	s.Keys("/")
	s.Keys("-l", "state:paused")
	s.Keys("Enter")
	screen = s.WaitUntil("the fleet filtered to checkout", func(screen string) bool {
		rows := screenRows(screen)
		return len(rows) == 1 && rows[teamA+" deploy/checkout"].State == cluster.FleetPaused
	})
	t.Logf("filtered by state:paused:\n%s", screen)

	s.Keys("Enter")
	screen = s.WaitUntil("checkout's rollout view", func(screen string) bool {
		return strings.Contains(screen, "ReplicaSets") && strings.Contains(screen, "checkout") && len(screenRows(screen)) <= 1
	})
	t.Logf("enter on checkout:\n%s", screen)
	s.Keys("Escape")
	screen = s.WaitUntil("the fleet again", func(screen string) bool {
		return !strings.Contains(screen, "ReplicaSets") && screenRows(screen)[teamA+" deploy/checkout"].State == cluster.FleetPaused
	})
	t.Logf("esc from checkout:\n%s", screen)
}

// TestConsoleAllNamespacesForAOneNamespaceUser: team-a's user asking for
// every namespace gets team-a's fleet, each state the API's, and a line on
// the screen saying -A fell back to team-a.
func TestConsoleAllNamespacesForAOneNamespaceUser(t *testing.T) {
	c := fleetCluster(t)
	s := c.console(t, c.teamAKubeconfig(t), "-A")
	c.agrees(t, "team-a's user's fleet", fleetIn(teamA), func() map[string]shown { return screenRows(running(t, s)) })
	screen := s.WaitUntil("a line saying -A fell back to team-a", func(screen string) bool {
		for _, l := range strings.Split(screen, "\n") {
			if fellBack(l) {
				return true
			}
		}
		return false
	})
	t.Logf("team-a's user's fleet:\n%s", screen)
}

// TestConsoleOneNamespace: without -A the console watches one namespace
// (-n, or the kubeconfig context's) and opens on its fleet; each row's
// state is the API's and the most urgent comes first — side by side, one
// console per namespace, and one for team-a's user, whose context names
// team-a.
func TestConsoleOneNamespace(t *testing.T) {
	c := fleetCluster(t)
	firsts := map[string]string{teamA: "checkout", teamB: "ledger", teamC: "search"}
	for _, ns := range namespaces {
		t.Run(ns, func(t *testing.T) {
			t.Parallel()
			s := c.console(t, c.cp.AdminKubeconfig, "-n", ns)
			c.agrees(t, ns+"'s fleet", fleetIn(ns), func() map[string]shown { return screenRows(running(t, s)) })
			if want, ok := firsts[ns]; ok {
				if screen := s.Screen(); firstRow(screen) != want {
					t.Errorf("the first row of %s's fleet is %q, want %s:\n%s", ns, firstRow(screen), want, screen)
				}
			}
		})
	}
	t.Run("team-a's user", func(t *testing.T) {
		t.Parallel()
		s := c.console(t, c.teamAKubeconfig(t))
		c.agrees(t, "team-a's user's fleet", fleetIn(teamA), func() map[string]shown { return screenRows(running(t, s)) })
	})
}

// console starts rollscope in tmux with kubeconfig and flags, naming no
// workload: the fleet is the start screen.
func (c *testbed) console(t *testing.T, kubeconfig string, flags ...string) *tmuxtest.Session {
	t.Helper()
	s := tmuxtest.Start(t, width, height, append([]string{c.bin, "--kubeconfig", kubeconfig}, flags...)...)
	s.Timeout = patience
	return s
}

// running is the console's screen while it runs; one that has exited fails
// the test at once, with what it left on the terminal.
func running(t *testing.T, s *tmuxtest.Session) string {
	t.Helper()
	screen := s.Screen()
	if strings.Contains(screen, "rollscope exited") {
		t.Fatalf("rollscope exited:\n%s", screen)
	}
	return screen
}

// nameOnLine finds a fleet workload's name as a word of its own (names share
// no substring, namespaces are not names).
var nameOnLine = func() *regexp.Regexp {
	var names []string
	for _, w := range fleet {
		names = append(names, regexp.QuoteMeta(w.name))
	}
	return regexp.MustCompile(`(?:^|[^a-z0-9-])(` + strings.Join(names, "|") + `)(?:[^a-z0-9-]|$)`)
}()

// screenRows reads the fleet's rows off a screen: a line naming a workload
// and, after the name, a state word; the first such line of each workload
// is its row (a detail line further down may name it again). The console
// says the state only: revision and counts are left to --plain.
func screenRows(screen string) map[string]shown {
	out := map[string]shown{}
	for _, line := range strings.Split(screen, "\n") {
		m := nameOnLine.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		name := line[m[2]:m[3]]
		st, ok := firstState(line[m[3]:])
		if !ok {
			continue
		}
		for _, w := range fleet {
			if w.name == name {
				if _, seen := out[w.key()]; !seen {
					out[w.key()] = shown{State: st}
				}
			}
		}
	}
	return out
}

// firstRow names the workload of the first row on screen.
func firstRow(screen string) string {
	for _, line := range strings.Split(screen, "\n") {
		if m := nameOnLine.FindStringSubmatchIndex(line); m != nil {
			if _, ok := firstState(line[m[3]:]); ok {
				return line[m[2]:m[3]]
			}
		}
	}
	return ""
}

// firstState is the state word that comes first in text: the STATE column
// comes before the reason and the change-cause, which may use the words
// too.
func firstState(text string) (cluster.FleetState, bool) {
	best, found := len(text), false
	var st cluster.FleetState
	for _, s := range cluster.FleetStates() {
		if i := strings.Index(text, s.String()); i >= 0 && i < best {
			best, st, found = i, s, true
		}
	}
	return st, found
}
