package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestPlainEmbeddedRunPrintsStatusAndActionLines(t *testing.T) {
	out, banner := plainFrontend(t, 80)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 2 || banner.String() != "rollscope: embedded cluster, scenario \"frontend\" at 80x real time (Ctrl-C to stop)\n" {
		t.Fatalf("output:\n%s\nbanner: %s", out.String(), banner.String())
	}
	lines = append([]string{""}, lines...)
	status := regexp.MustCompile(`^\[ *\d+\.\ds\] deployment/frontend 25 desired · \d+ total · \d+ updated · \d+ available — \S.*$`)
	action := regexp.MustCompile(`^\[ *6\d\.\ds\] action setImage deployment/frontend: ok$`)
	why := regexp.MustCompile(`^\[ *\d+\.\ds\] deployment/frontend why \S.*$`)
	var actions int
	for _, l := range lines[1:] {
		switch {
		case action.MatchString(l):
			actions++
		case !status.MatchString(l) && !why.MatchString(l):
			t.Errorf("line %q is neither a status, blocker nor action line", l)
		}
	}
	if actions != 1 || !strings.Contains(out.String(), `— deployment "frontend" successfully rolled out`) {
		t.Errorf("want the rollout done and one set image; output:\n%s", out.String())
	}
}

// --until is virtual time, reached whatever the speed asks of the
// machine: at a million times real time the runner falls far behind, and
// the run still goes to 64s of virtual time — the set image at 60s is sent,
// at 60s — and no further.
func TestPlainUntilIsVirtualTimeHoweverFarBehindTheRunnerFalls(t *testing.T) {
	out, _ := plainFrontend(t, 1e6)
	if !regexp.MustCompile(`(?m)^\[   60\.0s\] action setImage deployment/frontend: ok$`).MatchString(out.String()) {
		t.Errorf("no set image at 60.0s before --until 64s; output:\n%s", out.String())
	}
	for _, m := range regexp.MustCompile(`(?m)^\[ *(\d+\.\d)s\]`).FindAllStringSubmatch(out.String(), -1) {
		if at, _ := strconv.ParseFloat(m[1], 64); at > 64 {
			t.Errorf("a line stamped %ss, after --until 64s; output:\n%s", m[1], out.String())
			break
		}
	}
}

// Through the real binary: a rollout to an image the registry does not
// have prints, once its new pods fail to pull, the header's blocker line.
func TestPlainPrintsWhyTheRolloutIsStuck(t *testing.T) {
	t.Parallel()
	r := rollscope(t, "--plain", "--scenario", whyScenario(t, "why-pull"), "--speed", "40", "--until", "45s")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	line := regexp.MustCompile(`(?m)^\[ *(\d+)\.\ds\] deployment/web why new image cannot be pulled — registry\.local/web:v5: (ErrImagePull|ImagePullBackOff) \(2 pods\)$`)
	m := line.FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no blocker line for the pull error:\n%s", r.stdout)
	}
	if m[1] < "20" || len(m[1]) != 2 {
		t.Errorf("the pull blocker is printed at %ss, before the set image at 20s:\n%s", m[1], r.stdout)
	}
	// Printed when it changes, not on every status line: never twice in a row.
	var prev string
	for _, l := range strings.Split(r.stdout, "\n") {
		_, why, ok := strings.Cut(l, "] deployment/web why ")
		if !ok {
			continue
		}
		if why == prev {
			t.Errorf("blocker printed twice in a row: %q\n%s", why, r.stdout)
		}
		prev = why
	}
}

// plainFrontend runs the frontend scenario in --plain to --until 64s at
// speed, returning its output and its banner.
func plainFrontend(t *testing.T, speed float64) (*bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	f := &rootFlags{scenario: "frontend", speed: speed, until: 64 * time.Second}
	sc, err := loadScenario(f.scenario, f.until)
	if err != nil {
		t.Fatal(err)
	}
	var out, banner bytes.Buffer
	if err := runPlain(context.Background(), &out, &banner, f, sc, sc.Namespace, "", ""); err != nil {
		t.Fatal(err)
	}
	return &out, &banner
}

// A rolling update whose old pods take two minutes to stop completes while
// they are still terminating (the cluster does not wait for them), so the
// blocker line must never say it waits for them: with the surge budget full
// it names the new pods not yet available, which is what the rollout waits
// for. The scenario is given with -f, as simulate takes it.
func TestPlainRollingUpdateDoesNotWaitForOldPodsToStop(t *testing.T) {
	t.Parallel()
	r := rollscope(t, "--plain", "-f", whyScenario(t, "why-slow-stop"), "--speed", "40", "--until", "60s")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	// Set to the new image at 20s, the old pods stop 120s after their
	// deletion: a rollout done before 60s did not wait for any of them.
	done := regexp.MustCompile(`(?m)^\[ *([2-5]\d)\.\ds\] deployment/web 4 desired · 4 total · 4 updated · 4 available — deployment "web" successfully rolled out$`)
	if !done.MatchString(r.stdout) {
		t.Fatalf("the rolling update did not complete before its old pods stopped:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "waiting for old pods to terminate") {
		t.Errorf("the blocker line says the rolling update waits for old pods to stop:\n%s", r.stdout)
	}
	if !regexp.MustCompile(`(?m)^\[ *(2\d|3[0-4])\.\ds\] deployment/web why waiting for new pods to become available, \d+ of \d+ so far — web-\S+ (not ready|running but not ready)`).MatchString(r.stdout) {
		t.Errorf("with the surge budget full, no blocker line names the new pods the rollout waits for:\n%s", r.stdout)
	}
}
