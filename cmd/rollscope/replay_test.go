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
