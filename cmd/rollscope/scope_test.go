package main

import (
	"strings"
	"testing"

	"rollscope/ui"
)

// A switch that names no namespace keeps the one watched before.
func TestSwitchedScope(t *testing.T) {
	was := ui.Switch{Namespace: "shop"}
	if got := keepNamespace(ui.Switch{AllNamespaces: true}, was); got != (ui.Switch{Namespace: "shop", AllNamespaces: true}) {
		t.Errorf(":ns all from shop = %+v", got)
	}
	if got := keepNamespace(ui.Switch{Namespace: "billing"}, was); got != (ui.Switch{Namespace: "billing"}) {
		t.Errorf(":ns billing from shop = %+v", got)
	}
}

// -A wins over -n, as in kubectl: a namespace the scenario lacks is then no
// error; without -A it is refused in one line, exit 2.
func TestAllNamespacesWinsOverN(t *testing.T) {
	r := rollscope(t, "--scenario", "fleet", "--plain", "-A", "-n", "nope", "--until", "1s")
	if r.code != 0 || !strings.Contains(r.stderr, "every namespace") {
		t.Errorf("-A -n nope: exit %d, stderr %q; want 0 following every namespace", r.code, r.stderr)
	}
	r = rollscope(t, "--scenario", "fleet", "--plain", "-n", "nope", "--until", "1s")
	if r.code != 2 || !strings.Contains(r.stderr, `-n nope: scenario "fleet" has no namespace "nope" (its namespaces: billing, platform, search, shop)`) {
		t.Errorf("-n nope: exit %d, stderr %q", r.code, r.stderr)
	}
	// Without -A, --plain follows the fleet of the one namespace when it
	// holds several workloads.
	r = rollscope(t, "--scenario", "fleet", "--plain", "-n", "billing", "--until", "2s")
	if r.code != 0 || !strings.Contains(r.stdout, "billing deploy/ledger ") || strings.Contains(r.stdout, "shop deploy/") {
		t.Errorf("-n billing: exit %d, stdout %q", r.code, r.stdout)
	}
}
