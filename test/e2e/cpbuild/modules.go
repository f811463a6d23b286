package cpbuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Files written beside the binaries.
const (
	stampFile   = "modules.sha256" // digest of the module set, checked by Ensure
	modulesFile = "modules.txt"    // the module set itself, for people
)

// modules is the sorted set of "path@version" (with "=>path@version" for a
// replacement) of every module whose packages go into the binaries.
type modules []string

func (m modules) digest() string {
	sum := sha256.Sum256([]byte(strings.Join(m, "\n")))
	return hex.EncodeToString(sum[:])
}

// moduleSet asks the go command which modules the four main packages are
// compiled from, as this module's go.mod resolves them (about half a second
// with a warm module cache).
func moduleSet(ctx context.Context, moduleDir string) (modules, error) {
	args := []string{"list", "-deps", "-f", "{{with .Module}}{{.Path}}@{{.Version}}{{with .Replace}}=>{{.Path}}@{{.Version}}{{end}}{{end}}"}
	for _, p := range packages {
		args = append(args, p.pkg)
	}
	out, err := goCmd(ctx, moduleDir, args...)
	if err != nil {
		return nil, fmt.Errorf("listing the modules the control plane is built from: %w", err)
	}
	var set modules
	for _, line := range strings.Split(out, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			set = append(set, line)
		}
	}
	slices.Sort(set)
	set = slices.Compact(set)
	if len(set) == 0 {
		return nil, fmt.Errorf("go list found no modules for the control plane in %s", moduleDir)
	}
	return set, nil
}
