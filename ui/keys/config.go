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
// A missing file is not an error: the defaults apply. Unknown names are
// refused with file:line. Other sections of the file are left to their
// owners.
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
		if root.Content[i].Value == "keys" {
			if err := km.rebind(path, root.Content[i+1]); err != nil {
				return Default(), err
			}
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
	for i := 0; i+1 < len(keys.Content); i += 2 {
		name, val := keys.Content[i], keys.Content[i+1]
		b := k.Binding(name.Value)
		if b == nil {
			return fmt.Errorf("%s:%d: unknown action %q in keys (known: %s)",
				file, name.Line, name.Value, strings.Join(names, ", "))
		}
		var list []string
		switch val.Kind {
		case yaml.ScalarNode:
			list = []string{val.Value}
		case yaml.SequenceNode:
			for _, item := range val.Content {
				if item.Kind != yaml.ScalarNode || item.Value == "" {
					return fmt.Errorf("%s:%d: %s: each key must be a non-empty string such as \"ctrl+q\"",
						file, item.Line, name.Value)
				}
				list = append(list, item.Value)
			}
		default:
			return fmt.Errorf("%s:%d: %s: want a list of keys such as [\"q\"]", file, val.Line, name.Value)
		}
		enabled := b.Enabled()
		b.SetKeys(list...)
		b.SetHelp(strings.Join(list, "/"), b.Help().Desc)
		b.SetEnabled(enabled)
	}
	return nil
}
