package plain

import (
	"bytes"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// A workload's line is printed again when its figures move, not only when
// its state word does: its last line is what the fleet shows, never the
// figures of a moment it has moved past.
func TestFleetPrintsALineWhenTheFiguresMove(t *testing.T) {
	var out bytes.Buffer
	p := NewFleet(&out, nil, "", func(at time.Time) string { return at.Format("15:04:05") })
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	synced := cluster.WatchStatus{Connected: true, Synced: true}
	web := func(rv string, updated int32) runtime.Object {
		d := plainDeployment("web", rv, updated, 4)
		d.CreationTimestamp = metav1.NewTime(at)
		return d
	}
	for i, objs := range [][]runtime.Object{
		{web("1", 1)},
		{web("2", 1)}, // nothing shown moved
		{web("3", 3)}, // rolling still, 3/4 updated
	} {
		p.Batch(cluster.Batch{At: at.Add(time.Duration(i) * time.Second), Objects: objs, Watch: synced})
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("want a line at the start and one when the figures moved, got:\n%s", out.String())
	}
	if !strings.HasPrefix(lines[0], "[09:00:00] shop deploy/web rolling rev 0 1/4 updated 4/4 available") ||
		!strings.HasPrefix(lines[1], "[09:00:02] shop deploy/web rolling rev 0 3/4 updated 4/4 available") {
		t.Errorf("lines:\n%s", out.String())
	}
}

// The console's key hints in the text --plain shares with it are taken
// out, the actions kept; words that only look like one are left alone.
func TestWithoutKeys(t *testing.T) {
	for in, want := range map[string]string{
		"progress deadline exceeded after 60s — the rollout has failed; undo (u) or abort (x)": "progress deadline exceeded after 60s — the rollout has failed; undo or abort",
		"paused since 00:00 — resume with r, or undo with u":                                   "paused since 00:00 — resume, or undo",
		"cannot undo: deployment/web is paused — resume it first (r)":                          "cannot undo: deployment/web is paused — resume it first",
		"canary step 1/3: gate failed — crash loop (promote or abort)":                         "canary step 1/3: gate failed — crash loop (promote or abort)",
		"replaced with a new node (2 pods)":                                                    "replaced with a new node (2 pods)",
	} {
		if got := WithoutKeys(in); got != want {
			t.Errorf("WithoutKeys(%q) = %q, want %q", in, got, want)
		}
	}
}

// A rollout that stops moving on a quiet cluster turns stuck on the clock,
// as the console's row does: no watch event has to come to print it.
func TestFleetTickPrintsARolloutTurningStuckWithNoEvent(t *testing.T) {
	var out bytes.Buffer
	p := NewFleet(&out, nil, "", func(at time.Time) string { return at.Format("15:04:05") })
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	d := plainDeployment("web", "1", 1, 4)
	d.CreationTimestamp = metav1.NewTime(at)
	p.Tick(at) // before the watch has listed anything: nothing to say
	p.Batch(cluster.Batch{At: at, Objects: []runtime.Object{d}, Watch: cluster.WatchStatus{Connected: true, Synced: true}})
	p.Tick(at.Add(time.Minute))
	if n := strings.Count(out.String(), "\n"); n != 1 {
		t.Fatalf("a minute without progress printed more than the first line:\n%s", out.String())
	}
	p.Tick(at.Add(2*time.Minute + time.Second))
	p.Tick(at.Add(3 * time.Minute))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "[09:02:01] shop deploy/web stuck rev 0 1/4 updated") {
		t.Errorf("want one line when the rollout turned stuck, at the tick that saw it, got:\n%s", out.String())
	}
}
