package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// DefaultConfigPath is $XDG_CONFIG_HOME/rollscope/config.yaml, or
// ~/.config/rollscope/config.yaml when XDG_CONFIG_HOME is unset.
func DefaultConfigPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "rollscope", "config.yaml")
}

// Load reads the `keys:` section of the config file at path ("" means
// DefaultConfigPath) on top of Default:
//
//	keys:
//	  quit: ["q", "ctrl+q"]
//	  next-pane: ["tab", "ctrl+n"]
//
// A missing file is not an error: the defaults apply. Unknown action
// names, keys no key press is ever reported as, an unknown top-level key, a
// quit left with no key, ctrl+c given to anything but quit (it always
// quits) and one key given to two bindings that answer in the same place
// are refused with file:line.
func Load(path string) (Map, error) {
	km := Default()
	if path == "" {
		path = DefaultConfigPath()
		if path == "" {
			return km, nil
		}
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return km, nil
	}
	if err != nil {
		return km, fmt.Errorf("reading key bindings from %s: %w", path, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return km, fmt.Errorf("config file %s is not valid YAML: %w", path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return km, nil
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		name := root.Content[i]
		if name.Value != "keys" {
			return Default(), fmt.Errorf("%s:%d: unknown setting %q (known: keys) — themes are chosen with --theme", path, name.Line, name.Value)
		}
		if err := km.rebind(path, root.Content[i+1]); err != nil {
			return Default(), err
		}
	}
	return km, nil
}

func (k *Map) rebind(file string, keys *yaml.Node) error {
	if keys.Kind != yaml.MappingNode {
		return fmt.Errorf("%s:%d: keys must map action names to lists of keys, e.g. quit: [\"q\"]", file, keys.Line)
	}
	var names []string
	for _, a := range k.names() {
		names = append(names, a.Name)
	}
	lines := map[string]int{} // binding name → the line that rebound it
	for i := 0; i+1 < len(keys.Content); i += 2 {
		name, val := keys.Content[i], keys.Content[i+1]
		lines[name.Value] = name.Line
		b := k.Binding(name.Value)
		if b == nil {
			return fmt.Errorf("%s:%d: unknown action %q in keys (known: %s)",
				file, name.Line, name.Value, strings.Join(names, ", "))
		}
		var items []*yaml.Node
		switch val.Kind {
		case yaml.ScalarNode:
			items = []*yaml.Node{val}
		case yaml.SequenceNode:
			items = val.Content
		default:
			return fmt.Errorf("%s:%d: %s: want a list of keys such as [\"q\"]", file, val.Line, name.Value)
		}
		var list []string
		for _, item := range items {
			if item.Kind != yaml.ScalarNode || item.Value == "" {
				return fmt.Errorf("%s:%d: %s: each key must be a non-empty string such as \"ctrl+q\"",
					file, item.Line, name.Value)
			}
			if err := checkKey(item.Value); err != nil {
				return fmt.Errorf("%s:%d: %s: %w", file, item.Line, name.Value, err)
			}
			if item.Value == Interrupt && name.Value != "quit" {
				return fmt.Errorf("%s:%d: %s: %s always quits rollscope — give %s another key", file, item.Line, name.Value, Interrupt, name.Value)
			}
			list = append(list, item.Value)
		}
		if name.Value == "quit" && len(list) == 0 {
			return fmt.Errorf("%s:%d: quit needs at least one key, such as [\"q\"]", file, val.Line)
		}
		bound := list
		if name.Value == "quit" && indexOf(list, Interrupt) < 0 {
			// ctrl+c quits whatever the file says; help shows the
			// file's keys.
			bound = append(list[:len(list):len(list)], Interrupt)
		}
		enabled := b.Enabled()
		b.SetKeys(bound...)
		b.SetHelp(strings.Join(list, "/"), b.Help().Desc)
		b.SetEnabled(enabled)
	}
	return k.conflicts(file, lines)
}

// conflicts refuses a key the file gives to two bindings that answer in
// the same place: one of them could never be pressed. Bindings that share
// a key by default answer in different places (x aborts a rollout, and in
// the Nodes pane stops a roll) and may go on sharing one.
func (k *Map) conflicts(file string, lines map[string]int) error {
	apart := map[[2]string]bool{}
	def := Default()
	defNames := def.names()
	for i, a := range defNames {
		for _, b := range defNames[i+1:] {
			if shareKey(a.B.Keys(), b.B.Keys()) {
				apart[[2]string{a.Name, b.Name}] = true
			}
		}
	}
	all := k.names()
	for i, a := range all {
		for _, b := range all[i+1:] {
			if apart[[2]string{a.Name, b.Name}] || (lines[a.Name] == 0 && lines[b.Name] == 0) {
				continue
			}
			if key, ok := sharedKey(a.B.Keys(), b.B.Keys()); ok {
				line := max(lines[a.Name], lines[b.Name])
				return fmt.Errorf("%s:%d: %q is bound to both %s and %s — give one of them another key", file, line, key, a.Name, b.Name)
			}
		}
	}
	return nil
}

func shareKey(a, b []string) bool { _, ok := sharedKey(a, b); return ok }

func sharedKey(a, b []string) (string, bool) {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return x, true
			}
		}
	}
	return "", false
}
