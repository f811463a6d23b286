package main

import (
	"fmt"
	"slices"
	"strings"

	"rollscope/engine/scenario"
	"rollscope/ui/plain"
)

// embeddedNamespace is the namespace the embedded console and --plain
// show: -n when given, which the scenario must have, else the scenario's
// own.
func embeddedNamespace(sc *scenario.Scenario, flag string) (string, error) {
	if flag == "" || flag == sc.Namespace {
		return sc.Namespace, nil
	}
	have := sc.Namespaces()
	if slices.Contains(have, flag) {
		return flag, nil
	}
	return "", badInput("-n %s: scenario %q has no namespace %q (its namespaces: %s) — leave -n out, or add objects there to the scenario",
		flag, sc.Name, flag, strings.Join(have, ", "))
}

// checkEmbeddedTarget refuses a deployment the scenario never creates in
// ns, naming those it does: the embedded cluster starts from the scenario
// alone, so nothing else will ever appear there.
func checkEmbeddedTarget(sc *scenario.Scenario, ns, name string) error {
	have := sc.Deployments(ns)
	if name == "" || slices.Contains(have, name) {
		return nil
	}
	err := plain.NotFound(ns, name, have)
	if name == "version" {
		err = fmt.Errorf("%w — for rollscope's own version, run rollscope --version", err)
	}
	return err
}
