package ui

import "rollscope/ui/keys"

// KeyMap is the console's key map (package keys); Options.Keys overrides
// the default one.
type KeyMap = keys.Map

// DefaultKeyMap is the key map with no config file.
func DefaultKeyMap() KeyMap { return keys.Default() }

// LoadKeyMap reads the config file's `keys:` section on top of the
// defaults (see keys.Load).
func LoadKeyMap(path string) (KeyMap, error) { return keys.Load(path) }
