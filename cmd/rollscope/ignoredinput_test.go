package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Input rollscope used to ignore is refused in one line naming what was
// wrong and what to do: a deployment or namespace the embedded scenario
// does not have, a key config with a conflict or an unknown setting, a bad
// rolling-update image, an object in a namespace the scenario never
// creates.
func TestIgnoredInputIsRefused(t *testing.T) {
	config := t.TempDir()
	write := func(body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(config, "rollscope"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(config, "rollscope", "config.yaml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", config)
	badNamespace := writeFile(t, "ns.yaml", goodScenario+"  ---\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c, namespace: shop}\n")
	cases := []struct {
		name   string
		config string
		args   []string
		code   int
		want   string
	}{
		{"plain deployment not there", "", []string{"--plain", "deploy/nosuch"}, 1, `deployments.apps "nosuch" not found in namespace "default" (there: frontend)`},
		{"version as a name", "", []string{"version"}, 1, "run rollscope --version"},
		{"namespace not in the scenario", "", []string{"-n", "shop", "--plain"}, 2, `scenario "frontend" has no namespace "shop" (its namespaces: default)`},
		{"namespace not in the scenario, recording", "", []string{"-n", "shop", "--plain", "--record-to", filepath.Join(config, "x.rec")}, 2, `scenario "frontend" has no namespace "shop" (its namespaces: default)`},
		{"one key two actions", "keys:\n  set-image: [p]\n", []string{"--plain"}, 2, `config.yaml:2: "p" is bound to both set-image and pause`},
		{"quit without a key", "keys:\n  quit: []\n", []string{"--plain"}, 2, "config.yaml:2: quit needs at least one key"},
		{"unknown setting", "theme: dark\n", []string{"--plain"}, 2, `config.yaml:1: unknown setting "theme"`},
		{"unknown key name", "keys:\n  quit: [\"notakey+++\"]\n", []string{"--plain"}, 2, `config.yaml:2: quit: "notakey+++" is not a key`},
		{"ctrl+c to an action", "keys:\n  help: [ctrl+c]\n", []string{"--plain"}, 2, `config.yaml:2: help: ctrl+c always quits rollscope`},
		{"rolling-update bad image", "", []string{"rolling-update", "web", "--image=BAD IMAGE", "--scenario", "legacy-rc"}, 2, `--image: image "BAD IMAGE" is not a valid reference`},
		{"rolling-update empty tag", "", []string{"rolling-update", "web", "--image=nginx:", "--scenario", "legacy-rc"}, 2, `image "nginx:" is not a valid reference`},
		{"object in a namespace never created", "", []string{"simulate", "-f", badNamespace}, 2, `ns.yaml:18: ConfigMap "c" is in namespace "shop", which the scenario does not create`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			write(tc.config)
			r := rollscope(t, tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line saying %q", r.code, r.stderr, tc.code, tc.want)
			}
		})
	}
}

// The console shows the namespace -n asks for on the embedded cluster.
func TestConsoleHonoursNamespaceOnTheEmbeddedCluster(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 30, "--scenario", "frontend", "-n", "default", "deploy/frontend")
	c.waitFor("ns default")
	r := rollscope(t, "-n", "shop", "deploy/frontend")
	if r.code != 2 {
		t.Errorf("-n shop on a scenario without it: exit %d, %q", r.code, r.stderr)
	}
}
