package main

import (
	"regexp"
	"strings"
	"testing"
)

// Through the real binary: --plain -A on the fleet scenario prints a line for
// every workload of every namespace first, then a line whenever one's state
// changes — the failing rollout's failed, the paused one's paused — and
// exits 0 at --until.
func TestPlainAllNamespacesPrintsEachWorkloadsStateChanges(t *testing.T) {
	t.Parallel()
	r := rollscope(t, "--scenario", "fleet", "--plain", "-A", "--until", "2m")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 at --until; stderr: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, `scenario "fleet" at 10x real time, every namespace`) {
		t.Errorf("banner on stderr: %q", r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	// The first line of each workload, before anything else is printed.
	first := map[string]bool{}
	for _, l := range lines {
		if strings.Contains(l, "] action ") {
			break
		}
		f := strings.Fields(strings.SplitN(l, "] ", 2)[1])
		first[f[0]+" "+f[1]] = true
	}
	for _, w := range []string{"billing deploy/ledger", "search deploy/query", "shop deploy/frontend", "search sts/elastic",
		"platform ds/node-exporter", "billing rc/legacy-billing", "platform deploy/batch-runner"} {
		if !first[w] {
			t.Errorf("no first line for %s before the first action; output:\n%s", w, r.stdout)
		}
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^\[ *\d+\.\ds\] billing deploy/ledger failed rev \d+ \d+/4 updated \d+/4 available .*— waiting for new pods to become available, \d of 4 so far — ledger-\w+-\w+ running but not ready for \w+: no readiness probe failure recorded · progress deadline exceeded after 30s, the rollout has failed.*$`),
		regexp.MustCompile(`(?m)^\[ *\d+\.\ds\] search deploy/query paused rev \d+ `),
		regexp.MustCompile(`(?m)^\[ *\d+\.\ds\] shop deploy/frontend canary step 1/3 rev \d+ `),
		regexp.MustCompile(`(?m)^\[ *\d+\.\ds\] shop deploy/checkout crash-looping rev \d+ `),
		regexp.MustCompile(`(?m)^\[ *\d+\.\ds\] search deploy/indexer stuck rev \d+ `),
	} {
		if !want.MatchString(r.stdout) {
			t.Errorf("no line matching %s; output:\n%s", want, r.stdout)
		}
	}
	// A line only when the state changes: never the same line twice in a
	// row for one workload.
	last := map[string]string{}
	for _, l := range lines {
		text := strings.SplitN(l, "] ", 2)[1]
		f := strings.Fields(text)
		if f[0] == "action" {
			continue
		}
		key := f[0] + " " + f[1]
		if last[key] == text {
			t.Errorf("%s printed the same line twice in a row: %s", key, l)
		}
		last[key] = text
	}
}

// keyHintRE finds a console key hint in a --plain line: "undo (u)",
// "resume with r".
var keyHintRE = regexp.MustCompile(`\((?:[a-zA-Z?]|esc|enter|tab)\)| with [b-zB-HJ-Z]\b`)

// Through the real binary: --plain -A raises no alarm at the start (the
// scenario's nodes are there before its workloads), prints a workload's
// line again when its figures move so that its last line is what the
// console shows (indexer: stuck with 1 of 3 pods updated, not the 3/3 of
// the moment its rollout began), and carries no console key hint.
func TestPlainAllNamespacesLinesStayCurrentAndRaiseNoFalseAlarm(t *testing.T) {
	t.Parallel()
	r := rollscope(t, "--scenario", "fleet", "--plain", "-A", "--until", "30s")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 at --until; stderr: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	last := map[string]string{}
	started := false
	for _, l := range lines {
		text := strings.SplitN(l, "] ", 2)[1]
		if strings.HasPrefix(text, "action ") {
			started = true
			continue
		}
		if !started && (strings.Contains(text, " stuck ") || strings.Contains(text, "cannot be scheduled")) {
			t.Errorf("an alarm before the scenario did anything: %s", l)
		}
		if keyHintRE.MatchString(text) {
			t.Errorf("a console key hint in a --plain line: %s", l)
		}
		f := strings.Fields(text)
		last[f[0]+" "+f[1]] = text
	}
	if got := last["search deploy/indexer"]; !strings.HasPrefix(got, "search deploy/indexer stuck rev 2 1/3 updated 3/3 available ") {
		t.Errorf("indexer's last line: %q, want it stuck with 1/3 updated, as the console shows; output:\n%s", got, r.stdout)
	}
	if got := last["search deploy/query"]; !strings.Contains(got, "paused") || !strings.Contains(got, "resume, or undo") {
		t.Errorf("query's last line: %q, want it paused, saying what can be done without keys", got)
	}
}

// Through the real binary: the one-deployment --plain says what a failed
// rollout leaves to do without the console's keys, and exits 1 as kubectl
// rollout status does.
func TestPlainWhyLineCarriesNoKeyHint(t *testing.T) {
	t.Parallel()
	r := rollscope(t, "--scenario", "crashloop", "--plain", "--speed", "40", "--until", "3m")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 for the failed rollout; stderr: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "progress deadline exceeded after 60s, the rollout has failed: undo or abort\n") {
		t.Errorf("no deadline why line saying what to do, without keys:\n%s", r.stdout)
	}
	for _, l := range strings.Split(r.stdout, "\n") {
		if keyHintRE.MatchString(l) {
			t.Errorf("a console key hint in a --plain line: %s", l)
		}
	}
}
