package keys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func press(s string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: []rune(s)[0], Text: s} }

func TestLoadKeyMapRebinds(t *testing.T) {
	path := writeConfig(t, "keys:\n  quit: [\"ctrl+q\"]\n  next-pane: [\"tab\", \"ctrl+n\"]\n  set-image: I\n")
	km, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := km.Quit.Keys(); len(got) != 1 || got[0] != "ctrl+q" {
		t.Errorf("quit keys = %v", got)
	}
	if km.Quit.Help().Key != "ctrl+q" || km.Quit.Help().Desc != "quit" {
		t.Errorf("quit help = %+v", km.Quit.Help())
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}, km.NextPane) {
		t.Error("ctrl+n does not move to the next pane")
	}
	// Rebinding an action with no cluster to act on keeps it disabled.
	if km.Action(action.SetImage).Enabled() || km.DisabledReason("set-image") != NoCluster {
		t.Error("rebinding set-image enabled it")
	}
}

func TestLoadKeyMapRefusesMistakes(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"unknown action", "keys:\n  quit: [q]\n  qiut: [x]\n", ":3: unknown action \"qiut\""},
		{"not a mapping", "keys: [q]\n", ":1: keys must map"},
		{"nested list", "keys:\n  quit: [[q]]\n", ":2: quit: each key must be"},
		{"not yaml", "keys: [\n", "not valid YAML"},
		{"quit with no key", "keys:\n  quit: []\n", ":2: quit needs at least one key"},
		{"one key two actions", "keys:\n  help: [\"?\"]\n  set-image: [p]\n", ":3: \"p\" is bound to both set-image and pause"},
		{"quit taken by another", "keys:\n  next-pane: [q]\n", ":2: \"q\" is bound to both quit and next-pane"},
		{"unknown setting", "keys:\n  quit: [q]\ntheme: dark\n", ":3: unknown setting \"theme\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.body)
			_, err := Load(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %v, want %q naming %s", err, tc.want, path)
			}
		})
	}
}

// Keys that share a default key answer in different places (x aborts a
// rollout, and stops a roll in the Nodes pane): rebinding one of them
// elsewhere is no conflict.
func TestLoadKeyMapKeepsKeysSharedByDesign(t *testing.T) {
	if _, err := Load(writeConfig(t, "keys:\n  quit: [q, ctrl+q]\n  next-pane: [tab, ctrl+n]\n")); err != nil {
		t.Fatal(err)
	}
}

func TestLoadKeyMapMissingFileGivesDefaults(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	km, err := Load("")
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

// Every action of the spec table has a key, a help line and a config-file
// name, and does nothing until there is a cluster to send it to.
func TestEveryActionKeyIsListedAndDisabledWithoutACluster(t *testing.T) {
	km := Default()
	for _, s := range action.Specs() {
		name := string(s.Name)
		b := km.Binding(name)
		if b == nil || b.Enabled() || km.DisabledReason(name) != NoCluster || b.Help().Desc != s.Help {
			t.Errorf("%s: binding %v, reason %q", name, b, km.DisabledReason(name))
		}
	}
	// No two actions share a key, except the Nodes pane's roll keys and
	// the RC, StatefulSet and DaemonSet views', which mean something else
	// there than elsewhere.
	paneOnly := map[string]bool{"pause-roll": true, "stop-roll": true, "rc-update": true, "rc-abort": true}
	for _, n := range action.Of(action.OnStatefulSet, action.OnDaemonSet) {
		paneOnly[string(n)] = true
	}
	seen := map[string]string{}
	for _, a := range km.names() {
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
