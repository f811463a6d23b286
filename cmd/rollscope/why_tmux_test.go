package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The "why is it stuck" tests run the real binary on scenarios from
// testdata/scenarios: each rollout gets stuck for its own reason, and the
// line under the status sentence must say that reason once it holds, and
// nothing before.

func whyScenario(t *testing.T, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("../../testdata/scenarios", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// whyLine is the blocker line on screen, "" when there is none.
func whyLine(screen string) string {
	for _, line := range strings.Split(screen, "\n") {
		if strings.HasPrefix(line, "why ") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// settled waits for the rollout to be complete before its scripted change,
// and checks no blocker line is shown then.
func (c *tmuxConsole) settled() {
	c.t.Helper()
	s := c.waitFor("successfully rolled out")
	if line := whyLine(s); line != "" {
		c.t.Errorf("a blocker line before anything blocks: %q\n%s", line, s)
	}
}

func TestWhyImageCannotBePulled(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", whyScenario(t, "why-pull"), "--speed", "10")
	c.settled()
	s := c.waitFor("why new image cannot be pulled — registry.local/web:v5: ImagePullBackOff (2 pods)")
	if !strings.Contains(s, "rev 2") {
		t.Errorf("the pull blocker is shown before the new revision:\n%s", s)
	}
	// The timeline tells the same story from the pods' Warning events, one
	// line per reason with counts.
	c.keys("Tab", "Tab", "Tab", "Tab")
	c.WaitMatch(regexp.MustCompile(`Failed: .*\(x\d+ on 2 pods\)`))

	// The logs of a pod that never started say why, in the kubelet's words.
	c.keys("Tab") // back to the ReplicaSets pane
	// ErrImagePull for a second after each failed pull, ImagePullBackOff
	// in between: the kubelet words each its own way.
	c.keys("k", "l")
	c.WaitMatch(regexp.MustCompile(`is waiting to start: (trying and failing to pull image|image can't be pulled)`))
}

func TestWhyNewPodsCannotBeScheduled(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", whyScenario(t, "why-unschedulable"), "--speed", "10")
	c.settled()
	c.waitFor("why new pods cannot be scheduled — 0/2 nodes are available: 2 Insufficient cpu")
}

func TestWhyNewPodsCrashLoop(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", "crashloop", "--speed", "10")
	c.settled()
	c.WaitMatch(regexp.MustCompile(`why new pods crash-loop — frontend-\w+-\w+ restarted \d+ times, last exit 1 \(Error\)`))

	// enter on a crash-looping pod: its detail, as describe shows it.
	c.keys("k", "Tab", "Enter")
	s := c.waitFor("Last State: Terminated Error  exit code 1")
	// Its state is Running or CrashLoopBackOff depending on the moment;
	// the last state and the back-off events are there either way.
	wantAll(t, s, "the pod detail", "Controlled By: ReplicaSet/frontend-", "Restart Count:", "Events", "Warning  BackOff")
	// The pod's Normal events, which the console watches only for the pod
	// described, come once its detail is open.
	c.WaitMatch(regexp.MustCompile(`Normal   Scheduled .* Successfully assigned`))
	// l from the detail: the run's log; p: the run before it, which
	// crashed with the same words.
	c.keys("l")
	c.waitFor("panic: open /etc/frontend/config.yaml")
	c.keys("p")
	c.waitFor("previous run")
	c.waitFor("panic: open /etc/frontend/config.yaml")
	c.keys("Escape")
	c.waitFor("ReplicaSets")
}

func TestWhyNewPodsAreSlowToBecomeReady(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", whyScenario(t, "why-slow-ready"), "--speed", "10")
	c.settled()
	// Created first (the line says ContainerCreating), then running and
	// failing its readiness probe, which the kubelet's events say.
	running := regexp.MustCompile(`^why waiting for new pods to become available, \d+ of \d+ so far — web-\w+-\w+ not ready for \d+s: readiness probe failed$`)
	c.WaitUntil("the blocker to name a pod failing its readiness probe", func(s string) bool { return running.MatchString(whyLine(s)) })

	// The logs of the new ReplicaSet's newest pod, followed, and searched.
	c.keys("k", "l")
	c.waitFor("following")
	c.waitFor("warming caches")
	c.keys("/", "w", "a", "r", "m", "Enter")
	c.waitFor("/warm  (n next, N previous)")
	c.keys("Escape")

	// Two minutes later the pods are ready and the line is gone.
	c.WaitUntil("the rollout to finish without a blocker line", func(s string) bool {
		return strings.Contains(s, "successfully rolled out") && strings.Contains(s, "rev 2") && whyLine(s) == ""
	})
}

func TestWhyDrainIsBlockedByABudget(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", whyScenario(t, "why-drain-pdb"), "--speed", "10")
	c.settled()
	c.waitFor("why drain of nodes-0 blocked by PodDisruptionBudget web-pdb (0 disruptions allowed)")
}

// --read-only turns off every write, not what only reads: l still shows
// the logs.
func TestLogsAreReadWithReadOnly(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", whyScenario(t, "why-pull"), "--speed", "10", "--read-only")
	s := c.waitFor("successfully rolled out")
	if !strings.Contains(s, "READ-ONLY") {
		t.Errorf("the header does not say READ-ONLY:\n%s", s)
	}
	c.keys("l")
	c.waitFor("listening on :8080")
}

// Past its progress deadline the crash loop stays the reason: the rollout
// page's why line keeps it and adds the deadline, and so does the fleet's
// line for the row (not kubectl's sentence alone).
func TestWhyKeepsTheCauseAfterTheDeadline(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 220, 40, "--scenario", "crashloop", "--speed", "10")
	c.settled()
	failed := regexp.MustCompile(`why new pods crash-loop — frontend-\w+-\w+ restarted \d+ times, last exit 1 \(Error\) · progress deadline exceeded after 60s, the rollout has failed: undo \(u\) or abort \(x\)`)
	c.WaitMatch(failed)
	c.keys("F")
	c.WaitMatch(regexp.MustCompile(`deploy/frontend: new pods crash-loop — frontend-\w+-\w+ restarted \d+ times, last exit 1 \(Error\) · progress deadline exceeded after 60s`))
}

// A failed rollout whose new pod runs but never becomes ready, with
// nothing said about why (fleet's billing/ledger: no probe failure, only
// the scheduler's event): the fleet's line says what is known — the pod
// runs, is not ready, and for how long — and the deadline.
func TestWhySaysWhatItKnowsWhenNoCauseIsRecorded(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 220, 48, "--scenario", "fleet", "--speed", "10", "-A")
	c.waitFor("1 failed")
	c.WaitMatch(regexp.MustCompile(`billing deploy/ledger: waiting for new pods to become available, \d of 4 so far — ledger-\w+-\w+ running but not ready for \d+(m\d+)?s: no readiness probe failure recorded · progress deadline exceeded after 30s`))
	c.keys("Enter")
	c.WaitMatch(regexp.MustCompile(`why waiting for new pods to become available, \d of 4 so far — ledger-\w+-\w+ running but not ready for \d+(m\d+)?s: no readiness probe failure recorded · progress deadline exceeded after 30s`))
}

// A pause at 00:00:45 reads as that time, to the second, not "00:00".
func TestWhyPausedSaysWhenToTheSecond(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", "canary", "--speed", "10")
	c.waitFor("why paused since 00:00:45 — resume with r, or undo with u")
}
