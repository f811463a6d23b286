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
	if got := km.Quit.Keys(); len(got) != 2 || got[0] != "ctrl+q" || got[1] != Interrupt {
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
		{"unknown key", "keys:\n  quit: [\"notakey+++\"]\n", `:2: quit: "notakey+++" is not a key: "notakey" is not a modifier`},
		{"unknown key name", "keys:\n  help: [\"?\"]\n  select: escape\n", `:3: select: "escape" is not a key`},
		{"unknown key in a list", "keys:\n  quit:\n    - q\n    - \"ctrl+qq\"\n", `:4: quit: "ctrl+qq" is not a key`},
		{"a space", "keys:\n  pause-clock: [\" \"]\n", `:2: pause-clock: " " is not a key: the space bar is named "space"`},
		{"modifiers out of order", "keys:\n  quit: [\"alt+ctrl+q\"]\n", `:2: quit: "alt+ctrl+q" never arrives: modifiers come in the order ctrl+alt+shift+meta+hyper+super, as in "ctrl+alt+q"`},
		{"shifted letter", "keys:\n  quit: [\"shift+q\"]\n", `"shift+q" never arrives: a shifted character is named by what it types, such as "Q"`},
		{"upper case after ctrl", "keys:\n  quit: [\"ctrl+Q\"]\n", `"ctrl+Q" never arrives: with a modifier a letter is written in lower case, as in "ctrl+shift+q"`},
		{"ctrl+c to an action", "keys:\n  help: [\"?\", ctrl+c]\n", `:2: help: ctrl+c always quits rollscope — give help another key`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.body)
			_, err := Load(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line %q naming %s", err, tc.want, path)
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
	// the RC view's and the kinds' views' (a kind's verbs: StatefulSet,
	// DaemonSet, Rollout), which mean something else there than
	// elsewhere; within one kind's view no two share one.
	// group-clusters is g in a fleet of several clusters only, top
	// everywhere else.
	paneOnly := map[string]bool{"pause-roll": true, "stop-roll": true, "rc-update": true, "rc-abort": true, "group-clusters": true}
	view := map[string]action.Object{}
	for _, s := range action.Specs() {
		if s.Verb != "" {
			view[string(s.Name)] = s.On
		}
	}
	seen := map[string]string{}
	inView := map[action.Object]map[string]string{}
	for _, a := range km.names() {
		if paneOnly[a.Name] {
			continue
		}
		where := seen
		if on, ok := view[a.Name]; ok {
			if inView[on] == nil {
				inView[on] = map[string]string{}
			}
			where = inView[on]
		}
		for _, k := range a.B.Keys() {
			if other, dup := where[k]; dup {
				t.Errorf("%q is bound to both %s and %s", k, other, a.Name)
			}
			where[k] = a.Name
		}
	}
}

// Every key name Bubble Tea reports for a key press (msg.String(), what the
// bindings are matched against) is accepted: printable characters, named
// keys, and both with modifiers.
func TestEveryReportedKeyNameIsAccepted(t *testing.T) {
	var presses []tea.KeyPressMsg
	for r := rune('!'); r <= '~'; r++ {
		presses = append(presses, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	for _, r := range "aqz09/[" {
		for _, mod := range []tea.KeyMod{tea.ModCtrl, tea.ModAlt, tea.ModCtrl | tea.ModAlt, tea.ModCtrl | tea.ModShift, tea.ModAlt | tea.ModShift} {
			presses = append(presses, tea.KeyPressMsg{Code: r, Mod: mod})
		}
	}
	named := []rune{tea.KeyEnter, tea.KeyTab, tea.KeyBackspace, tea.KeyEscape, tea.KeySpace, tea.KeyUp, tea.KeyDown,
		tea.KeyLeft, tea.KeyRight, tea.KeyPgUp, tea.KeyPgDown, tea.KeyHome, tea.KeyEnd, tea.KeyInsert, tea.KeyDelete}
	for c := tea.KeyF1; c <= tea.KeyF12; c++ {
		named = append(named, c)
	}
	for _, c := range named {
		for _, mod := range []tea.KeyMod{0, tea.ModShift, tea.ModCtrl, tea.ModAlt, tea.ModCtrl | tea.ModShift} {
			presses = append(presses, tea.KeyPressMsg{Code: c, Mod: mod})
		}
	}
	for _, p := range presses {
		if err := checkKey(p.String()); err != nil {
			t.Errorf("%q is refused: %v", p.String(), err)
		}
	}
	for _, s := range []string{"ctrl+c", "shift+tab", "f1", "f12", "pgdown", "space", "enter", "esc", "tab", "+", "ctrl++", "G", "?"} {
		if err := checkKey(s); err != nil {
			t.Errorf("%q is refused: %v", s, err)
		}
	}
	// Every default binding's keys pass the same check.
	km := Default()
	for _, a := range km.names() {
		for _, k := range a.B.Keys() {
			if err := checkKey(k); err != nil {
				t.Errorf("default %s key %q is refused: %v", a.Name, k, err)
			}
		}
	}
}

// A config file cannot take ctrl+c away from quit: it stays bound, while
// help shows the keys the file gave.
func TestCtrlCQuitsWhateverTheConfigSays(t *testing.T) {
	km, err := Load(writeConfig(t, "keys:\n  quit: [Q]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, km.Quit) || !key.Matches(press("Q"), km.Quit) {
		t.Errorf("quit keys = %v, want Q and ctrl+c", km.Quit.Keys())
	}
	if km.Quit.Help().Key != "Q" {
		t.Errorf("quit help = %q, want the file's Q", km.Quit.Help().Key)
	}
}
