package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/ui/keys"
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
	// Rebinding an action with no cluster to act on keeps it disabled.
	if km.Action(action.SetImage).Enabled() || km.DisabledReason("set-image") != keys.NoCluster {
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
