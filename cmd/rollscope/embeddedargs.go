package main

import (
	"fmt"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"

	"rollscope/engine/scenario"
)

// embeddedNamespace is the namespace the embedded console and --plain
// show: -n when given, which the scenario must have, else the scenario's
// own.
func embeddedNamespace(sc *scenario.Scenario, flag string) (string, error) {
	if flag == "" || flag == sc.Namespace {
		return sc.Namespace, nil
	}
	have := scenarioNamespaces(sc)
	for _, ns := range have {
		if ns == flag {
			return flag, nil
		}
	}
	return "", badInput("-n %s: scenario %q has no namespace %q (its namespaces: %s) — leave -n out, or add objects there to the scenario",
		flag, sc.Name, flag, strings.Join(have, ", "))
}

func scenarioNamespaces(sc *scenario.Scenario) []string {
	seen := map[string]bool{sc.Namespace: true}
	for _, o := range sc.Objects {
		if m, err := meta.Accessor(o); err == nil && m.GetNamespace() != "" {
			seen[m.GetNamespace()] = true
		}
	}
	out := make([]string, 0, len(seen))
	for ns := range seen {
		out = append(out, ns)
	}
	sort.Strings(out)
	return out
}

// scenarioDeployments are the deployments the scenario creates in ns.
func scenarioDeployments(sc *scenario.Scenario, ns string) []string {
	var out []string
	for _, o := range sc.Objects {
		if d, ok := o.(*appsv1.Deployment); ok && d.Namespace == ns {
			out = append(out, d.Name)
		}
	}
	sort.Strings(out)
	return out
}

// checkEmbeddedTarget refuses a deployment the scenario never creates in
// ns, naming those it does: the embedded cluster starts from the scenario
// alone, so nothing else will ever appear there.
func checkEmbeddedTarget(sc *scenario.Scenario, ns, name string) error {
	if name == "" {
		return nil
	}
	have := scenarioDeployments(sc, ns)
	for _, n := range have {
		if n == name {
			return nil
		}
	}
	err := notFound(ns, name, have)
	if name == "version" {
		err = fmt.Errorf("%w — for rollscope's own version, run rollscope --version", err)
	}
	return err
}
