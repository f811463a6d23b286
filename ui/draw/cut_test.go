package draw

import "testing"

// Names and images keep the end that tells them apart; a second image gets
// its share of the column.
func TestCutsKeepWhatTellsThingsApart(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"image fits", CutImage("nginx:1.27", 20), "nginx:1.27"},
		{"image cut before its last element", CutImage("gcr.io/google-samples/gb-frontend:v3", 24), "gcr.io/g…/gb-frontend:v3"},
		{"image cut to its end", CutImage("gcr.io/google-samples/gb-frontend:v3", 10), "…ontend:v3"},
		{"two images", CutImages("example.com/api:v1,example.com/sidecar:v2", 30), "exampl…/api:v1,ex…/sidecar:v2"},
		{"node names", CutMiddle("sim-xgkjc-nodes-2", 12), "sim-…nodes-2"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestCutKeepingHintKeepsTheWayOut(t *testing.T) {
	got := CutKeepingHint("cannot undo: deployment frontend is paused and kubectl refuses — resume it first (r)", 60)
	if got != "cannot undo: deployment frontend is p… — resume it first (r)" || WidthOf(got) > 60 {
		t.Errorf("%q (%d cells)", got, WidthOf(got))
	}
}
