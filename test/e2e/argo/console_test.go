package argo

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"rollscope/internal/tmuxtest"
	"rollscope/test/e2e/rollscopebin"
)

// Wide enough that no column of the fleet or the page is cut.
const width, height = 200, 50

var binOnce sync.Once

// bin is the rollscope binary under test, built once for the package and
// removed when the package's cluster stops.
func bin(t *testing.T) string {
	t.Helper()
	cluster(t)
	binOnce.Do(func() { shared.tb.Cleanup(rollscopebin.Cleanup) })
	return rollscopebin.Path(t)
}

// console starts rollscope in tmux on kubeconfig with args.
func console(t *testing.T, kubeconfig string, args ...string) *tmuxtest.Session {
	t.Helper()
	s := tmuxtest.Start(t, width, height, append([]string{bin(t), "--kubeconfig", kubeconfig}, args...)...)
	s.Timeout = patience
	return s
}

// lineWith is the first line of screen holding every one of words, or "".
func lineWith(screen string, words ...string) string {
	for _, l := range strings.Split(screen, "\n") {
		all := true
		for _, w := range words {
			if !strings.Contains(l, w) {
				all = false
				break
			}
		}
		if all {
			return l
		}
	}
	return ""
}

// confirm presses key, waits for the confirmation naming command and
// its forecast, answers y and waits for the toast saying it was done.
func confirm(t *testing.T, s *tmuxtest.Session, key, command, toast string) {
	t.Helper()
	s.Keys(key)
	answer(t, s, s.WaitFor(command), command, toast)
}

// forecastLine is a Rollout action's forecast, rehearsed on a copy of the
// cluster's Rollout by the embedded Argo controller, once worked out.
var forecastLine = regexp.MustCompile(`forecast: (\d+ scaling steps?|no forecast)`)

// answer waits for the confirmation's forecast (it is worked out after
// the confirmation opens), answers y and waits for the toast.
func answer(t *testing.T, s *tmuxtest.Session, screen, command, toast string) {
	t.Helper()
	if !forecastLine.MatchString(screen) {
		screen = s.WaitUntil("the forecast of "+command, forecastLine.MatchString)
	}
	t.Logf("the confirmation of %s:\n%s", command, screen)
	s.Keys("y")
	s.WaitFor("✔ " + toast)
}

// plain runs `rollscope --plain rollout/NAME` on the Rollout as admin,
// with args after, and returns its output and exit code.
func plain(t *testing.T, r rollout, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return run(t, bin(t), append([]string{"--kubeconfig", r.c.CP.AdminKubeconfig, "-n", r.ns, "--plain", "rollout/" + r.name}, args...)...)
}

// pluginStatus runs `kubectl argo rollouts status NAME` (Argo's own
// plugin) on the Rollout as admin, with args after.
func pluginStatus(t *testing.T, r rollout, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return run(t, r.c.Argo.Build.Plugin(), append([]string{"status", r.name, "-n", r.ns, "--kubeconfig", r.c.CP.AdminKubeconfig}, args...)...)
}

// run runs a command to its end and returns its output and exit code.
func run(t *testing.T, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && ctx.Err() == nil:
		code = exit.ExitCode()
	default:
		t.Fatalf("%s %v: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(name), args, err, &out, &errOut)
	}
	return out.String(), errOut.String(), code
}

// TestConsolePromotesFromTheFleet: with -A the canary waiting on its
// indefinite pause is a fleet row saying it awaits promotion and for how
// long; P on that row names the plugin's promote, and y moves the Rollout
// past the pause.
func TestConsolePromotesFromTheFleet(t *testing.T) {
	t.Parallel()
	r, _, paused := pausedCanary(t, "tmux-promote", "front")
	s := console(t, r.c.CP.AdminKubeconfig, "-A")
	screen := s.WaitUntil("front's fleet row awaiting promotion", func(screen string) bool {
		return lineWith(screen, r.ns, "front", "awaiting promo") != ""
	})
	t.Logf("the fleet:\n%s", screen)

	// The filter leaves front's row alone, selected: the line under the
	// fleet is its why, how long it has waited and where.
	s.Keys("/")
	s.Keys("-l", "front")
	s.Keys("Enter")
	screen = s.WaitUntil("front selected, its why saying how long it has waited at the pause", func(screen string) bool {
		why := lineWith(screen, r.ns+" ro/front:", "waiting ", "step 2/4", "promote to go on")
		return why != "" && lineWith(screen, "awaiting promo") != "" && lineWith(screen, "tmux-abort") == ""
	})
	t.Logf("front selected:\n%s", screen)
	// P on a Deployment's row opens its dialog over the fleet; on a
	// Rollout's row it opens the Rollout's page, where P asks again.
	promote := "kubectl argo rollouts promote front -n " + r.ns
	s.Keys("P")
	screen = s.WaitUntil("P's confirmation, or front's page", func(screen string) bool {
		return strings.Contains(screen, promote) || strings.Contains(screen, "rollout/front") && strings.Contains(screen, "replica sets")
	})
	t.Logf("P on front's row:\n%s", screen)
	if !strings.Contains(screen, promote) {
		confirm(t, s, "P", promote, "promote: rollout 'front' promoted")
	} else {
		answer(t, s, screen, promote, "promote: rollout 'front' promoted")
	}
	end := r.waitFor(t, "past the indefinite pause", func(s snapshot) bool {
		return s.Step >= 2 && s.CurrentPodHash == paused.CurrentPodHash && !s.Abort
	})
	t.Logf("after P, y: %s", end)
	screen = s.WaitUntil("the screen past the pause: step 4/4 or Healthy", func(screen string) bool {
		return strings.Contains(screen, "step 4/4") || strings.Contains(screen, "Healthy")
	})
	t.Logf("promoted:\n%s", screen)
}

// TestConsoleAbortRetryPromoteFull: on the Rollout's page, x aborts the
// canary (status.abort; the page says degraded and aborted), t retries it
// back to its pause, and A promotes it fully to Healthy on the new
// ReplicaSet.
func TestConsoleAbortRetryPromoteFull(t *testing.T) {
	t.Parallel()
	r, first, paused := pausedCanary(t, "tmux-abort", "pay")
	s := console(t, r.c.CP.AdminKubeconfig, "-n", r.ns, "rollout/pay")
	s.WaitFor("step 2/4")

	confirm(t, s, "x", "kubectl argo rollouts abort pay -n "+r.ns, "abort: rollout 'pay' aborted")
	r.waitFor(t, "aborted: Degraded, every pod stable", func(s snapshot) bool {
		return s.Abort && s.Phase == "Degraded" && s.rs(first.StableRS).Ready == 5 && s.rs(paused.CurrentPodHash).Spec == 0
	})
	screen := s.WaitUntil("the page saying Degraded and aborted", func(screen string) bool {
		low := strings.ToLower(screen)
		return strings.Contains(low, "degraded") && strings.Contains(low, "aborted")
	})
	t.Logf("aborted:\n%s", screen)

	confirm(t, s, "t", "kubectl argo rollouts retry rollout pay -n "+r.ns, "retry: rollout 'pay' retried")
	retried := r.waitFor(t, "retried: the abort cleared, paused at step 1 again", pausedAt(1, 1, 4))
	if retried.Abort {
		t.Errorf("after retry status.abort is still set: %s", retried)
	}
	screen = s.WaitUntil("the page paused on step 2/4 again", func(screen string) bool {
		return strings.Contains(screen, "Paused") && strings.Contains(screen, "step 2/4") && !strings.Contains(strings.ToLower(screen), "degraded")
	})
	t.Logf("retried:\n%s", screen)

	confirm(t, s, "A", "kubectl argo rollouts promote pay --full -n "+r.ns, "promote fully: rollout 'pay' fully promoted")
	end := r.waitFor(t, "promoted fully: Healthy on the new revision", healthy(5))
	if end.StableRS != paused.CurrentPodHash {
		t.Errorf("healthy on ReplicaSet %s, want the canary's %s", end.StableRS, paused.CurrentPodHash)
	}
	screen = s.WaitFor("Healthy")
	t.Logf("promoted fully:\n%s", screen)
}

// TestPlainRolloutFollowsKubectlArgoStatus: `--plain rollout/NAME` ends
// as `kubectl argo rollouts status` (Argo's own plugin) does on the same
// Rollout: its last status line the plugin's last line, its exit code the
// plugin's, its error the plugin's words — on a Healthy Rollout (0), an
// aborted one (Degraded, 1) and one paused at a step past --timeout (1,
// "Rollout status watch exceeded timeout").
func TestPlainRolloutFollowsKubectlArgoStatus(t *testing.T) {
	t.Parallel()
	c := cluster(t)
	cases := []struct {
		name   string
		before func(*testing.T, rollout)
		args   []string
		code   int
	}{
		{"healthy", atHealthy, nil, 0},
		{"aborted", atAborted, nil, 1},
		{"paused", atStep, []string{"--timeout", "3s"}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRollout(t, c, "plain-"+tc.name, heldManifest("ledger", heldImage+":v1"))
			r.settle(t, "on its first revision")
			tc.before(t, r)

			pOut, pErr, pCode := pluginStatus(t, r, tc.args...)
			out, errOut, code := plain(t, r, tc.args...)
			t.Logf("the plugin: exit %d\n%s%s", pCode, pOut, pErr)
			t.Logf("rollscope: exit %d\n%s%s", code, out, errOut)
			if pCode != tc.code || code != pCode {
				t.Errorf("exit %d, the plugin's %d; want both %d", code, pCode, tc.code)
			}
			want := lastLine(pOut)
			got := ""
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				if _, status, ok := strings.Cut(l, " rollout/ledger "); ok && !strings.HasPrefix(status, "why ") {
					got = status
				}
			}
			if want == "" || got != want {
				t.Errorf("rollscope's last status line %q, the plugin's %q", got, want)
			}
			if pCode != 0 {
				msg := strings.TrimPrefix(lastLine(pErr), "Error: ")
				if msg == "" || !strings.Contains(errOut, msg) {
					t.Errorf("rollscope's error does not say the plugin's %q:\n%s", msg, errOut)
				}
			}
		})
	}
}

// lastLine is s's last line that is not empty.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
