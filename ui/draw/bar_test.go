package draw

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"rollscope/model"
	"rollscope/themes"
)

// The bars read at a glance: always the same length, a word for each
// state that matters, a dotted bar for a budget of 0 by design, and ready
// pods still waiting out minReadySeconds drawn apart.
func TestBarStates(t *testing.T) {
	st := themes.NoColor().Styles()
	plainFill := func(s ...string) string { return strings.Join(s, "") }
	for _, tc := range []struct {
		name string
		h    model.Headroom
		want string
	}{
		{"room left", model.Headroom{Used: 1, Limit: 4}, "unavailable " + strings.Repeat("█", 5) + strings.Repeat("░", 16) + " 1/4"},
		{"full", model.Headroom{Used: 4, Limit: 4}, "unavailable " + strings.Repeat("█", 21) + " 4/4 full"},
		{"over at start-up", model.Headroom{Used: 25, Limit: 2}, "unavailable " + strings.Repeat("█", 21) + " 25/2 over"},
		{"none by design", model.Headroom{Used: 0, Limit: 0}, "unavailable " + strings.Repeat("·", 21) + " 0/0 none"},
		// A rollout of ten thousand pods and more: the figures take
		// more cells and the bar fewer, the word whole.
		{"full at 30,000 replicas", model.Headroom{Used: 37500, Limit: 37500}, "unavailable " + strings.Repeat("█", 19) + " 37500/37500 full"},
		{"over at 30,000 replicas", model.Headroom{Used: 25710, Limit: 7500}, "unavailable " + strings.Repeat("█", 20) + " 25710/7500 over"},
		{"room at 30,000 replicas", model.Headroom{Used: 12000, Limit: 37500}, "unavailable " + strings.Repeat("█", 6) + strings.Repeat("░", 13) + " 12000/37500"},
		{"waiting out minReadySeconds", model.Headroom{Used: 2, Limit: 4, Waiting: 1}, "unavailable " + strings.Repeat("█", 5) + strings.Repeat("▒", 5) + strings.Repeat("░", 11) + " 2/4"},
	} {
		got := ansi.Strip(Bar(st, "unavailable", tc.h, plainFill, 48))
		if WidthOf(got) != 48 || strings.TrimRight(got, " ") != tc.want {
			t.Errorf("%s: %q (%d cells), want %q", tc.name, got, WidthOf(got), tc.want)
		}
	}
}
