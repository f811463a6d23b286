package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rollscope/internal/rolloutfixture"
)

// --plain ends as `kubectl rollout status` does once the rollouts it
// follows have finished (0) or failed (1), with kubectl's words on stderr;
// the banner goes to stderr so stdout holds status lines only.
func TestPlainEndsWithKubectlRolloutStatusExitCodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		scenario string
		code     int
		last     string
		stderr   string
	}{
		{"frontend", 0, `deployment "frontend" successfully rolled out`, ""},
		{"crashloop", 1, `deployment "frontend" exceeded its progress deadline`, `rollscope: deployment "frontend" exceeded its progress deadline`},
		{"canary", 1, "PAUSED", `rollscope: deployment "frontend" is paused part way and nothing left in the scenario resumes it`},
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			r := rollscope(t, "--plain", "--speed", "200", "--scenario", tc.scenario)
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			// The last status line: a blocker line ("… why …") may follow it.
			last := ""
			for _, l := range lines {
				if !strings.Contains(l, "] deployment/frontend why ") {
					last = l
				}
			}
			if r.code != tc.code || !strings.Contains(last, tc.last) {
				t.Errorf("exit %d, last status line %q; want exit %d after %q\nstderr: %s", r.code, last, tc.code, tc.last, r.stderr)
			}
			if !strings.HasPrefix(r.stderr, `rollscope: embedded cluster, scenario "`+tc.scenario+`"`) || !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr %q: want the banner, then %q", r.stderr, tc.stderr)
			}
			for _, l := range lines {
				if !strings.HasPrefix(l, "[") {
					t.Errorf("stdout line %q is not a stamped status or action line", l)
				}
			}
		})
	}
}

// Every usage error exits 2 with one line in one style — cobra's own
// (arguments, unknown commands, flag values) as well as rollscope's.
func TestUsageErrorsExit2InOneStyle(t *testing.T) {
	for _, args := range [][]string{
		{"--speed", "abc"}, {"a", "b"}, {"--nosuch"}, {"simulate", "a"}, {"scenarios", "nosuch"},
		{"scenarios", "show"}, {"--speed", "0"}, {"-n", "shop", "--plain"}, {"rolling-update"},
	} {
		r := rollscope(t, args...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, "rollscope: ") || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("rollscope %v: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := rollscope(t, "--version"); r.code != 0 || !strings.HasPrefix(r.stdout, "rollscope ") {
		t.Errorf("--version: exit %d, %q", r.code, r.stdout)
	}
}

// In a terminal the script's view is the same: the shell sees exit 1 after
// a rollout that exceeded its progress deadline.
func TestConsolePlainInATerminalExitsOneOnAFailedRollout(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 20, "--plain", "--speed", "200", "--scenario", "crashloop")
	s := c.waitFor("rollscope exited 1")
	if !strings.Contains(s, `rollscope: deployment "frontend" exceeded its progress deadline`) {
		t.Errorf("no failure line before the exit:\n%s", s)
	}
}

// Every way rolling-update and simulate end, against README's exit codes:
// 0 done, 1 a rollout failed, a cluster could not be used or what was asked
// is not there, 2 bad input — each with one line on stderr that says what
// is wrong, in the operator's words.
func TestRollingUpdateAndSimulateExitAsTheREADMESays(t *testing.T) {
	// No kubeconfig anywhere, and no connection flag.
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // on stderr; "" for nothing
	}{
		{"update rehearsed", []string{"rolling-update", "web", "--image=nginx:1.27", "--scenario", legacyRC}, 0, ""},
		{"dry run", []string{"rolling-update", "web", "--image=nginx:1.27", "--scenario", legacyRC, "--dry-run"}, 0, ""},
		{"controller not there", []string{"rolling-update", "nosuch", "--image=x", "--scenario", "legacy-rc"}, 1,
			`rollscope: replicationcontroller "nosuch" not found in namespace "default"`},
		{"rollback with nothing in progress", []string{"rolling-update", "web", "--rollback", "--scenario", "legacy-rc"}, 1,
			`rollscope: there is no rolling update in progress for replicationcontroller "web", so there is nothing to roll back: to go back to an older image, start a new rolling update with the old image`},
		{"no cluster and no connection flag", []string{"rolling-update", "web", "--image=nginx:1.27"}, 1,
			"no kubeconfig found (looked in "},
		{"no image and nothing in progress", []string{"rolling-update", "web", "--scenario", legacyRC}, 2, "give --image to start one"},
		{"no controller named", []string{"rolling-update"}, 2, "rolling-update takes RC and optionally NEXT"},
		{"unknown scenario", []string{"rolling-update", "web", "--image=nginx:1.27", "--scenario", "nosuch"}, 2, "nosuch"},
		{"simulate finished", []string{"simulate", "-f", "frontend", "--exit-status"}, 0, ""},
		{"simulate of a failed rollout, without --exit-status", []string{"simulate", "-f", "crashloop"}, 0, ""},
		{"simulate of a failed rollout", []string{"simulate", "-f", "crashloop", "--exit-status"}, 1,
			`rollscope: deployment "frontend" exceeded its progress deadline`},
		{"simulate of a rollout left paused", []string{"simulate", "-f", "canary", "--exit-status"}, 1,
			`rollscope: not finished when the run stopped: Waiting for deployment "frontend" rollout to finish`},
		{"simulate stopped before the rollout finished", []string{"simulate", "-f", "crashloop", "--exit-status", "--until", "40s"}, 1,
			"not finished when the run stopped"},
		{"simulate of a Rollout left at a pause", []string{"simulate", "-f", "argo-canary", "--exit-status"}, 1,
			"rollscope: not finished when the run stopped: rollout/checkout: Paused - CanaryPauseStep"},
		{"simulate without a scenario", []string{"simulate"}, 2, "simulate needs a scenario"},
		{"simulate of an unknown scenario", []string{"simulate", "-f", "nosuch"}, 2, "nosuch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rollscope(t, tc.args...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", r.code, tc.code, r.stderr)
			}
			if tc.want == "" {
				if r.stderr != "" {
					t.Errorf("stderr %q, want nothing", r.stderr)
				}
				return
			}
			if !strings.Contains(r.stderr, tc.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("stderr %q, want one line with %q", r.stderr, tc.want)
			}
			for _, wrong := range []string{"bad request", "connection flags", `""`} {
				if strings.Contains(r.stderr, wrong) {
					t.Errorf("stderr %q says %q", r.stderr, wrong)
				}
			}
		})
	}
}

// A scenario declares Argo Rollouts as ordinary manifests; a misspelled
// one is bad input, in one line at its place.
func TestSimulateRefusesAMisspelledRollout(t *testing.T) {
	f := filepath.Join(t.TempDir(), "argo.yaml")
	if err := os.WriteFile(f, []byte("objects: |\n  apiVersion: argoproj.io/v1alpha1\n  kind: Rollout\n  metadata: {name: checkout}\n  spec: {replicaz: 3}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := rollscope(t, "simulate", "-f", f)
	want := `argo.yaml:2: unknown field "replicaz" in Rollout "checkout"`
	if r.code != 2 || !strings.Contains(r.stderr, want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Errorf("exit %d, stderr %q; want 2 and one line with %q", r.code, r.stderr, want)
	}
}

// --exit-status counts Argo Rollouts as it counts Deployments: an aborted
// Rollout fails the run in `kubectl argo rollouts status`'s words, one
// promoted to the end does not.
func TestSimulateExitStatusCountsRollouts(t *testing.T) {
	scenario := `namespace: shop
nodeGroups:
  - {name: nodes, size: 2, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
` + rolloutfixture.Rollout(4, rolloutfixture.Canary) + `actions:
  - {at: 10s, setImage: {target: rollout/checkout, image: "shop/checkout:v2"}}
  - {at: 30s, %s: rollout/checkout}
`
	for _, tc := range []struct {
		action string
		code   int
		want   string
	}{
		{"abort", 1, "rollscope: rollout/checkout: The rollout is in a degraded state with message: RolloutAborted: Rollout aborted update to revision 2"},
		{"promote", 0, ""},
	} {
		f := filepath.Join(t.TempDir(), "argo.yaml")
		if err := os.WriteFile(f, []byte(fmt.Sprintf(scenario, tc.action)), 0o600); err != nil {
			t.Fatal(err)
		}
		r := rollscope(t, "simulate", "-f", f, "--exit-status")
		if r.code != tc.code || strings.TrimSpace(r.stderr) != tc.want {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", tc.action, r.code, r.stderr, tc.code, tc.want)
		}
	}
}

// A Rollout shape the embedded Argo controller does not run (here a
// traffic router) is bad input too: one line with its place, the field and
// what is run, and nothing played.
func TestSimulateRefusesAnUnmodelledRollout(t *testing.T) {
	f := filepath.Join(t.TempDir(), "argo.yaml")
	manifest := "objects: |\n  apiVersion: argoproj.io/v1alpha1\n  kind: Rollout\n  metadata: {name: checkout}\n  spec:\n" +
		"    selector: {matchLabels: {app: c}}\n    template:\n      metadata: {labels: {app: c}}\n      spec: {containers: [{name: c, image: c}]}\n" +
		"    strategy:\n      canary:\n        trafficRouting: {nginx: {stableIngress: web}}\n"
	if err := os.WriteFile(f, []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	r := rollscope(t, "simulate", "-f", f)
	want := `argo.yaml:12: Rollout "checkout" has a traffic router (spec.strategy.canary.trafficRouting), which rollscope's embedded Argo controller does not run (it runs the basic canary (`
	if r.code != 2 || !strings.Contains(r.stderr, want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || r.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line with %q", r.code, r.stdout, r.stderr, want)
	}
}
