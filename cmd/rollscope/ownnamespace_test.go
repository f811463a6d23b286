package main

import (
	"strings"
	"testing"
)

// A scenario file that declares its own namespace, as a manifest `kubectl
// apply` takes may, runs; it used to be refused with "cannot create
// *v1.Namespace "shop": namespaces "shop" already exists".
func TestScenarioDeclaringItsNamespaceRuns(t *testing.T) {
	file := writeFile(t, "own.yaml", "namespace: shop\n"+goodScenario+
		"  ---\n  apiVersion: v1\n  kind: Namespace\n  metadata: {name: shop, labels: {team: payments}}\n")
	r := rollscope(t, "simulate", "-f", file)
	if r.code != 0 || !strings.Contains(r.stdout, `"namespace":"shop","name":"web"`) {
		t.Errorf("exit %d, stderr %q; want the run of shop/web", r.code, r.stderr)
	}
	r = rollscope(t, "--plain", "--speed", "200", "--until", "5s", "--scenario", file)
	if r.code != 0 || !strings.Contains(r.stdout, "deployment/web") || strings.Contains(r.stderr, "*v1.") {
		t.Errorf("--plain: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
