package scenario

import (
	"fmt"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"

	"rollscope/model/kind"
)

// Namespaces are the namespaces the scenario's objects live in, its own
// among them, sorted: the only ones the embedded cluster will ever have.
func (sc *Scenario) Namespaces() []string {
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

// Deployments are the names of the deployments the scenario creates in
// namespace, sorted.
func (sc *Scenario) Deployments(namespace string) []string {
	var out []string
	for _, o := range sc.Objects {
		if d, ok := o.(*appsv1.Deployment); ok && d.Namespace == namespace {
			out = append(out, d.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Workloads counts the workloads (Deployments, StatefulSets, DaemonSets,
// ReplicationControllers) the scenario creates in namespace, "" for every
// one: --plain with none named follows the fleet when there are several.
func (sc *Scenario) Workloads(namespace string) int {
	n := 0
	for _, o := range sc.Objects {
		if _, ok := kind.Of(o); !ok {
			continue
		}
		if m, err := meta.Accessor(o); err == nil && (namespace == "" || m.GetNamespace() == namespace) {
			n++
		}
	}
	return n
}

// Summary is what `rollscope scenarios` says of the scenario's size: "12
// objects, 6 nodes, 3 scripted actions".
// A scenario of several clusters counts them all: "3 clusters, 36
// objects, …".
func (sc *Scenario) Summary() string {
	objects, nodes, actions := 0, 0, 0
	for _, c := range append([]*Scenario{sc}, sc.Clusters...) {
		objects, actions = objects+len(c.Objects), actions+len(c.Actions)
		for _, g := range c.NodeGroups {
			nodes += g.Size
		}
	}
	s := plural(objects, "object") + ", " + plural(nodes, "node") + ", " + plural(actions, "scripted action")
	if len(sc.Clusters) > 0 {
		s = plural(len(sc.Clusters), "cluster") + ", " + s
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// SpansNamespaces reports whether the scenario's workloads live in more
// than one namespace: the console then opens on all of them, so that none
// hides what is failing in another.
func (sc *Scenario) SpansNamespaces() bool {
	n := 0
	for _, ns := range sc.Namespaces() {
		if sc.Workloads(ns) > 0 {
			n++
		}
	}
	return n > 1
}
