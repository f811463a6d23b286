// Package buildinfo is what a rollscope binary says about itself: the name
// it was invoked by and the version it was built from.
package buildinfo

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// CommandName is how the user invoked rollscope: installed as
// kubectl-rollscope (krew's name for the plugin), kubectl runs it as
// `kubectl rollscope`, and its usage lines say so.
func CommandName() string { return commandName(os.Args[0]) }

func commandName(argv0 string) string {
	if strings.HasPrefix(filepath.Base(argv0), "kubectl-") {
		return "kubectl rollscope"
	}
	return "rollscope"
}

// Version is what --version prints: the module version (a release's tag,
// or Go's pseudo-version of the commit), the commit the binary was built
// from when Go recorded it, and the Go release that built it.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	return describe(info)
}

func describe(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " (commit " + rev + modified + ")"
	}
	return v + ", " + info.GoVersion
}
