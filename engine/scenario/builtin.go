package scenario

import (
	"embed"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
)

//go:embed builtin/*.yaml
var builtinFiles embed.FS

// Builtins returns the names of the built-in scenarios, sorted.
func Builtins() []string {
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// BuiltinSource returns the commented YAML of a built-in scenario, as
// `rollscope scenarios show NAME` prints it for a user to copy.
func BuiltinSource(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return nil, false
	}
	data, err := builtinFiles.ReadFile(path.Join("builtin", name+".yaml"))
	if err != nil {
		return nil, false
	}
	return data, true
}

// Load parses a built-in scenario by name, or else the scenario file at
// nameOrPath.
func Load(nameOrPath string) (*Scenario, error) {
	if data, ok := BuiltinSource(nameOrPath); ok {
		return Parse(nameOrPath+".yaml", data)
	}
	data, err := os.ReadFile(nameOrPath)
	if err != nil {
		return nil, fmt.Errorf("load scenario %q: it is not a built-in (%s) and reading it as a file failed: %w",
			nameOrPath, strings.Join(Builtins(), ", "), err)
	}
	return Parse(nameOrPath, data)
}

// BuiltinDescription is the first sentence of a built-in scenario's
// leading comment ("# crashloop: roll out an image whose container
// crashes ..."), for `rollscope scenarios` to list: the comment is the one
// place the scenario is described.
func BuiltinDescription(name string) string {
	src, ok := BuiltinSource(name)
	if !ok {
		return ""
	}
	var words []string
	for _, line := range strings.Split(string(src), "\n") {
		text, ok := strings.CutPrefix(line, "#")
		if !ok || strings.TrimSpace(text) == "" {
			break
		}
		words = append(words, strings.Fields(text)...)
	}
	s := strings.TrimPrefix(strings.Join(words, " "), name+": ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return s
}
