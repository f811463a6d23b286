package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"rollscope/internal/rolloutfixture"
)

// blueGreenScenario is a blue/green Rollout without auto-promotion, given
// a new image at 10s; actions adds scripted actions after it.
func blueGreenScenario(t *testing.T, actions string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "bluegreen.yaml")
	scenario := `namespace: shop
nodeGroups:
  - {name: nodes, role: Node, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
` + rolloutfixture.BlueGreen(3, ", autoPromotionEnabled: false") + `actions:
  - {at: 10s, setImage: {target: rollout/checkout, image: "shop/checkout:v2"}}
` + actions
	if err := os.WriteFile(f, []byte(scenario), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// The embedded cluster runs a blue/green Rollout as Argo's controller
// does: without auto-promotion it holds at the BlueGreenPause with the
// preview Service on the new ReplicaSet and the active one on the old; on
// its page P promotes it (as `kubectl argo rollouts promote` would), the
// active Service switches to the new ReplicaSet, and the page says so.
func TestPromotingAnEmbeddedBlueGreenRolloutSwitchesTheActiveService(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 40, "--scenario", blueGreenScenario(t, ""), "--speed", "20")
	s := c.waitFor("Paused - BlueGreenPause")
	m := regexp.MustCompile(`blueGreen · active (\w+) · preview (\w+)`).FindStringSubmatch(s)
	if m == nil || m[1] == m[2] {
		t.Fatalf("the paused page does not show the active Service on the old ReplicaSet and the preview on the new:\n%s", s)
	}
	old, preview := m[1], m[2]
	wantAll(t, s, "the paused blue/green Rollout", "waits for a promote", "stable web=shop/checkout:v1 · preview web=shop/checkout:v2")
	wantRow(t, s, "checkout-"+preview, "preview")
	wantRow(t, s, "checkout-"+old, "stable active")
	c.keys("P")
	c.waitFor("y send")
	c.keys("y")
	s = c.waitFor("blueGreen · active " + preview + " · preview " + preview)
	wantAll(t, s, "the promoted blue/green Rollout", "Healthy", "stable web=shop/checkout:v2")
	wantRow(t, s, "checkout-"+preview, "stable active")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// wantRow fails the test unless the screen's row of ReplicaSet name shows
// role right after it.
func wantRow(t *testing.T, screen, name, role string) {
	t.Helper()
	for _, l := range strings.Split(screen, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == name {
			if !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), name)), role) {
				t.Errorf("the row of %s does not say %q:\n%s", name, role, screen)
			}
			return
		}
	}
	t.Errorf("no row of %s:\n%s", name, screen)
}

// --plain rollout/NAME on the embedded cluster says what `kubectl argo
// rollouts status --watch` says of the blue/green Rollout: held at its
// BlueGreenPause with nothing left to promote it, it ends there with exit
// 1; promoted by the scenario, it ends Healthy with 0.
func TestPlainFollowsAnEmbeddedBlueGreenRollout(t *testing.T) {
	t.Parallel()
	r := rollscope(t, "--scenario", blueGreenScenario(t, ""), "--plain", "--speed", "40", "rollout/checkout")
	wantAll(t, r.stdout, "the paused run's lines", "rollout/checkout Progressing - active service cutover pending",
		"rollout/checkout Paused - BlueGreenPause", "promote to go on")
	if r.code != 1 || !strings.Contains(r.stderr, `rollout "checkout" is paused (BlueGreenPause) and nothing left in the scenario resumes it`) {
		t.Errorf("a paused run ended with %d and %q, want 1 and why", r.code, r.stderr)
	}
	r = rollscope(t, "--scenario", blueGreenScenario(t, "  - {at: 25s, promote: rollout/checkout}\n"), "--plain", "--speed", "40", "rollout/checkout")
	wantAll(t, r.stdout, "the promoted run's lines", "rollout/checkout Paused - BlueGreenPause", "action promote rollout/checkout: ok")
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); r.code != 0 || !strings.HasSuffix(lines[len(lines)-1], "rollout/checkout Healthy") {
		t.Errorf("the promoted run ended with %d:\n%s", r.code, r.stdout)
	}
}
