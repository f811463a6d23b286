package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The recorder's bad input is one line and exit 2, before anything
// starts: a path that cannot be written, a file that is not a recording,
// a clock time the recording does not reach, a postmortem format.
func TestRecorderBadInputIsOneLineExitTwo(t *testing.T) {
	dir := t.TempDir()
	notRec := writeFile(t, "notes.txt", "apiVersion: v1\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--record-to", filepath.Join(dir, "missing", "x.rec"), "--plain"}, "cannot record to"},
		{[]string{"record", "--kubeconfig", filepath.Join(dir, "none")}, "record needs -o FILE"},
		{[]string{"replay", filepath.Join(dir, "none.rec")}, "cannot replay"},
		{[]string{"replay", notRec}, "it is not a rollscope recording"},
		{[]string{"replay", notRec, "--format", "html"}, "--format html: give markdown or jsonl"},
	} {
		r := rollscope(t, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("rollscope %v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

// --plain on the embedded cluster records what it follows, on the
// cluster's virtual clock: the recording was an empty file before.
func TestPlainOnTheEmbeddedClusterRecords(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "canary.rec")
	r := rollscope(t, "--scenario", "canary", "--plain", "--speed", "50", "--record-to", file)
	if r.code != 1 || !strings.Contains(r.stderr, "paused part way") {
		t.Fatalf("--plain ended with exit %d: %s", r.code, r.stderr)
	}
	md := rollscope(t, "replay", file, "--format", "markdown")
	if md.code != 0 {
		t.Fatalf("replay --format markdown: exit %d: %s", md.code, md.stderr)
	}
	wantAll(t, md.stdout, "the recording's timeline",
		"# Recording of embedded, 2026-01-01 00:00:00 – 2026-01-01 00:0",
		"## deploy/frontend in default", "Created pod: frontend-")
}
