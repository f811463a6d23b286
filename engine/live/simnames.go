package live

import (
	"fmt"
	"math/rand/v2"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/engine/nodegroup"
	"rollscope/model"
)

// LabelSimulation marks what a live simulation creates outside its
// namespace (its hollow nodes) and the namespace itself; the value is the
// run's namespace. `kubectl delete nodes -l rollscope.dev/simulation=NS`
// removes a run's leftovers.
const LabelSimulation = model.Prefix + "simulation"

// idAlphabet is the alphabet of generated names in Kubernetes: no vowels,
// so no words, and no look-alike characters.
const idAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// runID is five random characters, as a generateName suffix has.
func runID(r *rand.Rand) string {
	b := make([]byte, 5)
	for i := range b {
		b[i] = idAlphabet[r.IntN(len(idAlphabet))]
	}
	return string(b)
}

// NamespaceFor is the fresh namespace of one run of a scenario:
// rollscope-sim-<scenario>-<id>, the scenario's name turned into a DNS label
// and shortened so that the whole fits in 63 characters.
func NamespaceFor(scenario, id string) string {
	const prefix = "rollscope-sim-"
	var b strings.Builder
	for _, c := range strings.ToLower(scenario) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteRune(c)
		default:
			b.WriteByte('-')
		}
	}
	name := b.String()
	if room := validation.DNS1123LabelMaxLength - len(prefix) - len(id) - 1; len(name) > room {
		name = name[:room]
	}
	name = strings.Trim(name, "-")
	for strings.Contains(name, "--") {
		name = strings.ReplaceAll(name, "--", "-")
	}
	if name == "" {
		name = "scenario"
	}
	return prefix + name + "-" + id
}

// hollowNames keeps a run's node names apart from the cluster's and from
// other runs': each scenario group G becomes the group sim-<id>-G, whose
// nodes the node group controller names sim-<id>-G-<index>. The trace and
// the scenario's actions keep the scenario's names.
type hollowNames struct {
	prefix    string
	namespace string
	groups    map[string]bool // the scenario's group names
}

func newHollowNames(id, namespace string, groups []nodegroup.Group) hollowNames {
	h := hollowNames{prefix: "sim-" + id + "-", namespace: namespace, groups: map[string]bool{}}
	for _, g := range groups {
		h.groups[g.Name] = true
	}
	return h
}

// Groups are the scenario's groups as the run's hollow groups: renamed,
// labelled with the run, and tainted so that only the run's pods (which
// tolerate the taint and select the label) are scheduled there.
func (h hollowNames) Groups(groups []nodegroup.Group) []nodegroup.Group {
	out := make([]nodegroup.Group, len(groups))
	for i, g := range groups {
		g.Name = h.prefix + g.Name
		labels := make(map[string]string, len(g.Labels)+1)
		for k, v := range g.Labels {
			labels[k] = v
		}
		labels[LabelSimulation] = h.namespace
		g.Labels = labels
		g.Taints = append(append([]corev1.Taint(nil), g.Taints...), h.taint())
		out[i] = g
	}
	return out
}

func (h hollowNames) taint() corev1.Taint {
	return corev1.Taint{Key: LabelSimulation, Value: h.namespace, Effect: corev1.TaintEffectNoSchedule}
}

// Node is the cluster's name of a scenario node ("<group>-<index>").
func (h hollowNames) Node(name string) (string, error) {
	for g := range h.groups {
		if strings.HasPrefix(name, g+"-") {
			return h.prefix + name, nil
		}
	}
	return "", fmt.Errorf("node %q is of no node group of the scenario", name)
}

// Group is the cluster's name of a scenario group.
func (h hollowNames) Group(name string) (string, error) {
	if !h.groups[name] {
		return "", fmt.Errorf("no node group %q in the scenario", name)
	}
	return h.prefix + name, nil
}

// scenarioNode is the scenario's name of one of the run's nodes; ok is false
// for any other node.
func (h hollowNames) scenarioNode(name string) (string, bool) {
	return strings.CutPrefix(name, h.prefix)
}

// scenarioLabels are a hollow node's labels with its group under the
// scenario's name.
func (h hollowNames) scenarioLabels(labels map[string]string) map[string]string {
	out := make(map[string]string, len(labels))
	for k, v := range labels {
		out[k] = v
	}
	if g, ok := strings.CutPrefix(out[model.NodeGroupLabel], h.prefix); ok {
		out[model.NodeGroupLabel] = g
	}
	return out
}
