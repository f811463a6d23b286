package themes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestBuiltinsSetEveryColourValidly(t *testing.T) {
	for _, name := range []string{"dark", "light", "high-contrast", "colorblind"} {
		t.Run(name, func(t *testing.T) {
			th, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if th.Name != name || th.Plain {
				t.Fatalf("Load(%q) = %q plain=%v", name, th.Name, th.Plain)
			}
			for _, f := range th.colourFields() {
				if err := validColour(*f.Ptr); err != nil {
					t.Errorf("%s: %v", f.Key, err)
				}
			}
			// The glyph grid must read by colour too: every pod state
			// needs its own colour.
			pod := []string{th.Muted, th.Accent, th.Warn, th.OK, th.Bad, th.Terminating, th.Failed}
			seen := map[string]bool{}
			for _, c := range pod {
				if c == "" || seen[c] {
					t.Errorf("pod state colours not distinct: %v", pod)
					break
				}
				seen[c] = true
			}
		})
	}
}

func TestColorblindUsesOkabeItoForMeaning(t *testing.T) {
	palette := map[string]bool{okabeBlack: true, okabeOrange: true, okabeSkyBlue: true, okabeGreen: true,
		okabeYellow: true, okabeBlue: true, okabeVermilion: true, okabePurple: true}
	th := Colorblind()
	for key, c := range map[string]string{"ok": th.OK, "warn": th.Warn, "bad": th.Bad, "surge": th.Surge,
		"unavailable": th.Unavailable, "terminating": th.Terminating, "failed": th.Failed, "accent": th.Accent} {
		if !palette[c] {
			t.Errorf("%s = %q, not an Okabe–Ito colour", key, c)
		}
	}
}

func TestAuto(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if got := Auto(true).Name; got != "dark" {
		t.Errorf("Auto(dark) = %s", got)
	}
	if got := Auto(false).Name; got != "light" {
		t.Errorf("Auto(light) = %s", got)
	}
	t.Setenv("NO_COLOR", "1")
	if th := Auto(true); !th.Plain || th.Name != "none" {
		t.Errorf("Auto with NO_COLOR = %+v, want the colourless theme", th)
	}
}

func TestNoColorRendersWithoutColourButKeepsEmphasis(t *testing.T) {
	th := NoColor()
	for _, f := range th.colourFields() {
		if *f.Ptr != "" {
			t.Errorf("%s = %q in the colourless theme", f.Key, *f.Ptr)
		}
	}
	s := th.Styles()
	if _, none := s.Selected.GetForeground().(lipgloss.NoColor); !none {
		t.Errorf("selection has a colour: %v", s.Selected.GetForeground())
	}
	if !s.Selected.GetReverse() {
		t.Error("selection must be reverse video without colour")
	}
	if !s.BarExhausted.GetReverse() || !s.BarExhausted.GetBold() {
		t.Error("an exhausted budget must stand out without colour")
	}
	out := s.Bad.Render("x") + s.OK.Render("y") + s.Pod[3].Render("●")
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
		t.Errorf("colourless styles emitted a colour: %q", out)
	}
}

func TestLoadUserTheme(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, yaml, wantErr string
		check               func(Theme) bool
	}{
		{name: "override on a base", yaml: "name: mine\nbase: light\naccent: \"#ff8800\"\nbad: \"9\"\n",
			check: func(th Theme) bool {
				return th.Name == "mine" && th.Accent == "#ff8800" && th.Bad == "9" && th.OK == Light().OK
			}},
		{name: "default base is dark", yaml: "ok: \"#00ff00\"\n",
			check: func(th Theme) bool { return th.OK == "#00ff00" && th.Warn == Dark().Warn }},
		{name: "unknown key", yaml: "accent: \"#fff\"\n\nacent: \"#000\"\n", wantErr: ":3: unknown theme key \"acent\""},
		{name: "bad colour", yaml: "ok: green\n", wantErr: ":1: ok: colour \"green\""},
		{name: "unknown base", yaml: "base: solarized\n", wantErr: ":1: base \"solarized\""},
		{name: "not a mapping", yaml: "- a\n", wantErr: "a theme is a mapping"},
		{name: "colour out of range", yaml: "warn: \"256\"\n", wantErr: "stop at 255"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "t"+string(rune('a'+i))+".yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			th, err := Load(path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want it to name %s and contain %q", err, path, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(th) {
				t.Errorf("theme = %+v", th)
			}
		})
	}
}

func TestLoadUnknownNameSaysWhatExists(t *testing.T) {
	_, err := Load("no-such-theme")
	if err == nil || !strings.Contains(err.Error(), "high-contrast") {
		t.Fatalf("err = %v, want it to list the built-ins", err)
	}
}
