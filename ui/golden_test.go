package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/ui/draw"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// screens are the states the golden files pin down, at each size.
var screens = []struct {
	name     string
	embedded bool
	keys     []tea.Msg
}{
	{name: "rollout"},
	{name: "embedded-pods", embedded: true, keys: []tea.Msg{press("j"), press("tab")}},
	{name: "help", keys: []tea.Msg{press("?")}},
	{name: "picker", keys: []tea.Msg{press("/")}},
	{name: "history-diff", keys: []tea.Msg{press("shift+tab"), press("shift+tab"), press("k"), press("enter")}},
	{name: "nodes", keys: []tea.Msg{press("tab"), press("tab"), press("j")}},
	{name: "timeline", keys: []tea.Msg{press("shift+tab")}},
}

var sizes = []struct{ w, h int }{{60, 20}, {80, 24}, {160, 48}}

func TestGoldenScreens(t *testing.T) {
	for _, sc := range screens {
		for _, sz := range sizes {
			name := sc.name + "-" + draw.Itoa(sz.w) + "x" + draw.Itoa(sz.h)
			t.Run(name, func(t *testing.T) {
				var clock EmbeddedControls
				if sc.embedded {
					clock = &fakeClock{speed: 4}
				}
				m := newTestModel(t, midRollout(), clock, sz.w, sz.h)
				m = send(m, sc.keys...)
				got := ansi.Strip(m.Render()) + "\n"
				checkFits(t, m.Render(), sz.w, sz.h)
				compareGolden(t, name, got)
			})
		}
	}
}

// checkFits asserts the screen is exactly h lines, none wider than w cells.
func checkFits(t *testing.T, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want exactly %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, n, w, ansi.Strip(l))
		}
	}
}

// TestEveryScreenFitsSmallTerminals walks the panes and overlays at sizes
// down to 80×24 and some awkward ones.
func TestEveryScreenFitsSmallTerminals(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {81, 25}, {119, 30}, {120, 29}, {200, 60}, {40, 12}} {
		m := newTestModel(t, midRollout(), &fakeClock{speed: 1}, sz.w, sz.h)
		for _, k := range []string{"", "tab", "tab", "tab", "enter", "tab", "tab", "?", "?", "/"} {
			if k != "" {
				m = send(m, press(k))
			}
			checkFits(t, m.Render(), sz.w, sz.h)
		}
	}
}

func TestFooterStaysOnTheLastLine(t *testing.T) {
	for _, k := range []string{"/", ":", "?"} {
		m := newTestModel(t, midRollout(), nil, 80, 24)
		m = send(m, press(k))
		lines := strings.Split(plain(m), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, "esc") {
			t.Errorf("after %s the last line is %q, want the footer", k, last)
		}
	}
}

// compareGolden checks got against testdata/name.golden, rewriting it with
// -update.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui/... -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("screen differs from %s (run with -update if the change is intended)\n got:\n%s\nwant:\n%s", path, got, want)
	}
}
