package themes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Load returns the built-in theme called nameOrFile, or reads a user theme
// from the YAML file at that path. A user theme may start from a built-in
// (`base: dark`) and override any colour:
//
//	name: mine
//	base: dark
//	accent: "#ff8800"
//	bad: "9"
//
// Unknown keys are refused with the file and line, so a typo never silently
// leaves a colour unset.
func Load(nameOrFile string) (Theme, error) {
	if t, ok := Builtin(nameOrFile); ok {
		return t, nil
	}
	data, err := os.ReadFile(nameOrFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Theme{}, fmt.Errorf("theme %q is neither a built-in (%s) nor an existing file: %w",
				nameOrFile, Listed(), err)
		}
		return Theme{}, fmt.Errorf("reading theme file %s: %w", nameOrFile, err)
	}
	return parse(nameOrFile, data)
}

func parse(file string, data []byte) (Theme, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Theme{}, fmt.Errorf("theme file %s is not valid YAML: %w", file, err)
	}
	if len(doc.Content) == 0 {
		return Theme{}, fmt.Errorf("theme file %s is empty: give at least a base or a colour", file)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return Theme{}, fmt.Errorf("%s:%d: a theme is a mapping of keys to colours", file, root.Line)
	}

	// The base goes first so the colours in the file override it wherever
	// it appears.
	t := Dark()
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Value == "base" {
			v := root.Content[i+1]
			b, ok := Builtin(v.Value)
			if !ok {
				return Theme{}, fmt.Errorf("%s:%d: base %q is not a built-in theme (%s)",
					file, v.Line, v.Value, Listed())
			}
			t = b
		}
	}
	t.Name = file

	fields := map[string]*string{}
	var known []string
	for _, f := range t.colourFields() {
		fields[f.Key] = f.Ptr
		known = append(known, f.Key)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "base":
			continue
		case "name":
			t.Name = v.Value
			continue
		}
		ptr, ok := fields[k.Value]
		if !ok {
			return Theme{}, fmt.Errorf("%s:%d: unknown theme key %q (known: name, base, %s)",
				file, k.Line, k.Value, strings.Join(known, ", "))
		}
		if v.Kind != yaml.ScalarNode {
			return Theme{}, fmt.Errorf("%s:%d: %s must be a colour such as \"#ff8800\" or \"9\"", file, v.Line, k.Value)
		}
		if err := validColour(v.Value); err != nil {
			return Theme{}, fmt.Errorf("%s:%d: %s: %w", file, v.Line, k.Value, err)
		}
		*ptr = v.Value
	}
	return t, nil
}
