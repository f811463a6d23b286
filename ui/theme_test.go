package ui

import (
	"strings"
	"testing"

	"rollscope/themes"
)

func TestNoColorThemeRendersWithoutColour(t *testing.T) {
	m := New(Options{Cluster: midRollout(), Namespace: "shop", Deployment: "frontend", Clock: fixedClock,
		Theme: themes.NoColor()})
	m = send(m, press("tab"))
	out := m.Render()
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
		t.Error("colourless theme emitted colours")
	}
	if !strings.Contains(out, "\x1b[") {
		t.Error("colourless theme lost bold/reverse emphasis too")
	}
}

func TestThemesChangeColoursNotLayout(t *testing.T) {
	var first string
	for _, name := range []string{"dark", "light", "high-contrast", "colorblind", "none"} {
		th, err := themes.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		m := New(Options{Cluster: midRollout(), Namespace: "shop", Deployment: "frontend", Clock: fixedClock, Theme: th})
		got := plain(m)
		if first == "" {
			first = got
		} else if got != first {
			t.Errorf("theme %s changed the text on screen", name)
		}
	}
}
