package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadKeyMapRebinds(t *testing.T) {
	path := writeConfig(t, "theme: dark\nkeys:\n  quit: [\"ctrl+q\"]\n  next-pane: [\"tab\", \"l\"]\n  set-image: I\n")
	km, err := LoadKeyMap(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := km.Quit.Keys(); len(got) != 1 || got[0] != "ctrl+q" {
		t.Errorf("quit keys = %v", got)
	}
	if km.Quit.Help().Key != "ctrl+q" || km.Quit.Help().Desc != "quit" {
		t.Errorf("quit help = %+v", km.Quit.Help())
	}
	if !key.Matches(press("l"), km.NextPane) {
		t.Error("l does not move to the next pane")
	}
	// Rebinding an action that is not available yet keeps it disabled.
	if km.SetImage.Enabled() || km.DisabledReason("set-image") != notYet {
		t.Error("rebinding set-image enabled it")
	}

	m := New(Options{Cluster: midRollout(), Namespace: "shop", Deployment: "frontend", Clock: fixedClock, Keys: &km})
	if _, cmd := m.Update(press("q")); cmd != nil {
		t.Error("q still quits after rebinding quit to ctrl+q")
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("ctrl+q does not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("ctrl+q does not quit")
	}
	next := send(m, tea.WindowSizeMsg{Width: 160, Height: 48}, press("?"))
	if !strings.Contains(plain(next), "ctrl+q") {
		t.Error("help does not show the rebound key")
	}
}

func TestLoadKeyMapRefusesMistakes(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"unknown action", "keys:\n  quit: [q]\n  qiut: [x]\n", ":3: unknown action \"qiut\""},
		{"not a mapping", "keys: [q]\n", ":1: keys must map"},
		{"nested list", "keys:\n  quit: [[q]]\n", ":2: quit: each key must be"},
		{"not yaml", "keys: [\n", "not valid YAML"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.body)
			_, err := LoadKeyMap(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %v, want %q naming %s", err, tc.want, path)
			}
		})
	}
}

func TestLoadKeyMapMissingFileGivesDefaults(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	km, err := LoadKeyMap("")
	if err != nil {
		t.Fatal(err)
	}
	if !key.Matches(press("q"), km.Quit) {
		t.Error("defaults not applied")
	}
	if want := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rollscope", "config.yaml"); DefaultConfigPath() != want {
		t.Errorf("DefaultConfigPath = %s, want %s", DefaultConfigPath(), want)
	}
}

func TestEveryActionKeyIsListedAndDisabledUntilItLands(t *testing.T) {
	km := DefaultKeyMap()
	for _, name := range []string{"set-image", "set-env", "scale", "restart", "pause", "resume", "undo",
		"abort", "cordon", "uncordon", "drain", "roll-group", "next-step", "pause-roll", "stop-roll"} {
		b := km.binding(name)
		if b == nil || b.Enabled() || km.DisabledReason(name) != notYet {
			t.Errorf("%s: binding %v, reason %q", name, b, km.DisabledReason(name))
		}
	}
	// No two actions share a key, except the Nodes pane's roll keys,
	// which mean something else there than elsewhere.
	paneOnly := map[string]bool{"pause-roll": true, "stop-roll": true}
	seen := map[string]string{}
	for _, a := range km.actionNames() {
		if paneOnly[a.Name] {
			continue
		}
		for _, k := range a.B.Keys() {
			if other, dup := seen[k]; dup {
				t.Errorf("%q is bound to both %s and %s", k, other, a.Name)
			}
			seen[k] = a.Name
		}
	}
}
