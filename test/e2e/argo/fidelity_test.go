package argo

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

// canaryFidelity are the canary scenarios under testdata/fidelity, each
// played by `rollscope simulate` on the embedded cluster and by `rollscope
// simulate --kubeconfig` against Argo's real controller. until bounds a
// run that never settles by itself (a canary stuck past its deadline).
var canaryFidelity = []struct{ name, until string }{
	{"weights-that-round", ""},
	{"one-replica", ""},
	{"two-replicas", ""},
	{"surge-zero", ""},
	{"unavailable-zero", ""},
	{"abort-retry", ""},
	{"promote-full", ""},
	{"undo-mid-canary", ""},
	{"progress-deadline", "25s"},
	{"progress-deadline-abort", ""},
}

// TestCanaryFidelity: the embedded Rollout controller and Argo's real one
// give the same ReplicaSet scale steps in the same order, the same phase,
// step and pause transitions with the same messages and events, and the
// same final Rollout and ReplicaSets. On a difference the two runs are
// printed side by side.
func TestCanaryFidelity(t *testing.T) {
	c := cluster(t)
	b := bin(t)
	for _, sc := range canaryFidelity {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join("testdata", "fidelity", sc.name+".yaml")
			args := []string{"simulate", "-f", file, "--format", "jsonl"}
			if sc.until != "" {
				args = append(args, "--until", sc.until)
			}
			embedded := play(t, "embedded", b, args...)
			live := play(t, "Argo", b, append(args, "--kubeconfig", c.CP.AdminKubeconfig)...)
			if diffs := compareCanaryRuns(embedded, live); len(diffs) > 0 {
				for _, d := range diffs {
					t.Error(d)
				}
				t.Logf("embedded trace:\n%s\nArgo's trace:\n%s", embedded.raw, live.raw)
			} else if testing.Verbose() {
				t.Logf("%s: the embedded controller and Argo's agree:\n%s", file, sideBySide(embedded.Source, live.Source, embedded.Scales, live.Scales))
			}
		})
	}
}

// play runs the binary with args and reads its trace of rollout/web.
func play(t *testing.T, source, bin string, args ...string) *canaryRun {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rollscope %v: %v: %s", args, err, stderr.Bytes())
	}
	run, err := readCanaryRun(source, "web", out)
	if err != nil {
		t.Fatal(err)
	}
	return run
}
