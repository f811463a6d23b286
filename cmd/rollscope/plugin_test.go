package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Installed as kubectl-rollscope (krew's name), the binary runs as
// `kubectl rollscope`: every usage line, help line and the version say so,
// and none says plain `kubectl` or `rollscope` where the user typed the other.
func TestKubectlPluginSpeaksAsKubectlRollscope(t *testing.T) {
	plugin := filepath.Join(t.TempDir(), "kubectl-rollscope")
	if err := os.Symlink(binary, plugin); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		out, err := exec.Command(plugin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("kubectl-rollscope %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	help := run("--help")
	for _, want := range []string{"  kubectl rollscope [deploy/NAME] [flags]\n", "  kubectl rollscope [command]\n", "help for kubectl rollscope\n",
		`Use "kubectl rollscope [command] --help"`} {
		if !strings.Contains(help, want) {
			t.Errorf("--help lacks %q:\n%s", want, help)
		}
	}
	for _, args := range [][]string{{"simulate", "--help"}, {"scenarios", "--help"}, {"rolling-update", "--help"}, {"completion", "bash", "--help"}} {
		if out := run(args...); !strings.Contains(out, "kubectl rollscope "+args[0]) || strings.Contains(out, "\n  kubectl "+args[0]) {
			t.Errorf("%v: the usage does not read kubectl rollscope %s:\n%s", args, args[0], out)
		}
	}
	if v := run("--version"); !strings.HasPrefix(v, "kubectl rollscope ") {
		t.Errorf("--version = %q; want it to start with kubectl rollscope", v)
	}
}
