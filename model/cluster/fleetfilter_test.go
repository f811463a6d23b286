package cluster_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"rollscope/model/cluster"
	"rollscope/model/kind"
)

// Every state word the fleet shows can be typed after /state: as shown
// (two words, quoted or not), hyphenated, or among other words; and the
// words an unknown state's error offers each parse back.
func TestEveryFleetStateWordCanBeTyped(t *testing.T) {
	for _, st := range cluster.FleetStates() {
		shown := st.String()
		for _, typed := range []string{
			"state:" + shown,
			"state:" + strings.ReplaceAll(shown, " ", "-"),
			`state:"` + shown + `"`,
			"web state:" + strings.ToUpper(shown) + " shop",
		} {
			f, err := cluster.ParseFleetFilter(typed)
			if err != nil || !slices.Equal(f.States, []cluster.FleetState{st}) {
				t.Errorf("/%s: %+v, %v; want state %q", typed, f, err, shown)
			}
		}
	}
	if f, _ := cluster.ParseFleetFilter("web state:node roll shop"); !slices.Equal(f.Words, []string{"web", "shop"}) {
		t.Errorf("the words around a two-word state: %q", f.Words)
	}
	_, err := cluster.ParseFleetFilter("state:nope")
	offered := regexp.MustCompile(`use one of (.*)$`).FindStringSubmatch(err.Error())
	if offered == nil {
		t.Fatalf("state:nope: %v", err)
	}
	for _, w := range strings.Split(offered[1], ", ") {
		if _, err := cluster.ParseFleetFilter("state:" + w); err != nil || strings.Contains(w, " ") {
			t.Errorf("the error offers %q, which cannot be typed back: %v", w, err)
		}
	}
}

// A Rollout's own state words (aborted, degraded, analysis failed,
// awaiting promotion) filter as the fleet shows them: /state:aborted keeps
// the aborted Rollout, not the other failed rows; /state:failed keeps them
// all.
func TestArgoStateWordsFilterTheRowsShowingThem(t *testing.T) {
	rows := []cluster.FleetRow{
		{Namespace: "shop", Kind: kind.Rollout, Name: "pay", State: cluster.FleetFailed, Word: "aborted"},
		{Namespace: "shop", Kind: kind.Rollout, Name: "cart", State: cluster.FleetFailed, Word: "degraded"},
		{Namespace: "shop", Kind: kind.Rollout, Name: "search", State: cluster.FleetFailed, Word: "analysis failed"},
		{Namespace: "shop", Kind: kind.Deployment, Name: "web", State: cluster.FleetFailed, Word: "failed"},
		{Namespace: "shop", Kind: kind.Rollout, Name: "front", State: cluster.FleetPaused, Word: "awaiting promotion"},
		{Namespace: "shop", Kind: kind.Deployment, Name: "api", State: cluster.FleetPaused, Word: "paused"},
	}
	kept := func(typed string) []string {
		t.Helper()
		f, err := cluster.ParseFleetFilter(typed)
		if err != nil {
			t.Fatalf("/%s: %v", typed, err)
		}
		var names []string
		for _, r := range rows {
			if f.Match(r) {
				names = append(names, r.Name)
			}
		}
		return names
	}
	for typed, want := range map[string][]string{
		"state:aborted":                      {"pay"},
		"state:DEGRADED":                     {"cart"},
		`state:"analysis failed"`:            {"search"},
		"state:analysis-failed":              {"search"},
		`state:"awaiting promotion"`:         {"front"},
		"state:awaiting promotion shop":      {"front"},
		"state:awaiting-promotion":           {"front"},
		"state:aborted state:degraded":       {"pay", "cart"},
		"state:failed":                       {"pay", "cart", "search", "web"},
		"state:paused":                       {"front", "api"},
		"state:aborted state:paused":         {"pay", "front", "api"},
		"pay state:awaiting-promotion":       nil,
		"front state:\"awaiting promotion\"": {"front"},
	} {
		if got := kept(typed); !slices.Equal(got, want) {
			t.Errorf("/%s keeps %v, want %v", typed, got, want)
		}
	}
}
