package cluster_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"rollscope/model/cluster"
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
