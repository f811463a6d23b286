package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The config file's keys reach the console: the rebound quit quits, the
// old key does not, and help shows the new one.
func TestReboundKeysReachTheConsole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("keys:\n  quit: [\"ctrl+q\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	km, err := LoadKeyMap(path)
	if err != nil {
		t.Fatal(err)
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

// ctrl+c quits from anywhere — the rollout page, help, the picker being
// typed in — also with a key map whose quit lost it.
func TestCtrlCAlwaysQuits(t *testing.T) {
	km := DefaultKeyMap()
	km.Quit.SetKeys("Q")
	for _, keys := range [][]string{nil, {"?"}, {":"}} {
		m := New(Options{Cluster: midRollout(), Namespace: "shop", Deployment: "frontend", Clock: fixedClock, Keys: &km})
		m = send(m, tea.WindowSizeMsg{Width: 120, Height: 30})
		for _, k := range keys {
			m = send(m, press(k))
		}
		_, cmd := m.Update(press("ctrl+c"))
		if cmd == nil {
			t.Fatalf("after %v: ctrl+c does nothing", keys)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("after %v: ctrl+c does not quit", keys)
		}
	}
}
