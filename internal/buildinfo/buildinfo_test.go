package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestCommandNameFollowsHowItWasInstalled(t *testing.T) {
	for argv0, want := range map[string]string{
		"rollscope":                            "rollscope",
		"/usr/local/bin/rollscope":             "rollscope",
		"/home/me/.krew/bin/kubectl-rollscope": "kubectl rollscope",
	} {
		if got := commandName(argv0); got != want {
			t.Errorf("commandName(%q) = %q; want %q", argv0, got, want)
		}
	}
}

// TestVersionNamesModuleAndCommit: a release says its tag and commit; a
// build from a changed tree says so.
func TestVersionNamesModuleAndCommit(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "rollscope", Version: "v1.2.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "577d8ea37cd7cb4dba580c4f1f4d21d77b6cf00f"}, {Key: "vcs.modified", Value: "false"}}}
	if got, want := describe(info), "v1.2.0 (commit 577d8ea37cd7), go1.26.8"; got != want {
		t.Errorf("describe = %q; want %q", got, want)
	}
	info.Main.Version, info.Settings[1].Value = "", "true"
	if got, want := describe(info), "(devel) (commit 577d8ea37cd7, modified), go1.26.8"; got != want {
		t.Errorf("describe = %q; want %q", got, want)
	}
}
