package scenario

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/engine/nodegroup"
)

var nodeGroupKeys = []string{"name", "role", "size", "capacity", "maxSurge", "maxUnavailable", "spec", "initialSpec", "bootTime", "taints", "labels"}

var roles = []string{nodegroup.RoleNode, nodegroup.RoleMaster, nodegroup.RoleControlPlane, nodegroup.RoleAPIServer, nodegroup.RoleBastion}

// maxGroupSize is the largest cluster Kubernetes supports; anything bigger is
// a typo that would only make the simulation crawl.
const maxGroupSize = 5000

// defaultCapacity is what a node gets for the resources its group leaves out:
// the kubelet's default pod limit and a mid-sized machine.
var defaultCapacity = corev1.ResourceList{
	corev1.ResourcePods:   resource.MustParse("110"),
	corev1.ResourceCPU:    resource.MustParse("4"),
	corev1.ResourceMemory: resource.MustParse("16Gi"),
}

var capacityKeys = []string{"pods", "cpu", "memory", "ephemeral-storage"}

var taintEffects = []string{string(corev1.TaintEffectNoSchedule), string(corev1.TaintEffectPreferNoSchedule), string(corev1.TaintEffectNoExecute)}

func (p *parser) nodeGroups(n *yaml.Node) ([]nodegroup.Group, error) {
	items, err := p.sequence(n, "nodeGroups", "- {name: nodes, size: 3}")
	if err != nil {
		return nil, err
	}
	groups := make([]nodegroup.Group, 0, len(items))
	firstLine := map[string]int{}
	for i, it := range items {
		where := fmt.Sprintf("nodeGroups[%d]", i)
		g, nameNode, err := p.nodeGroup(it, where)
		if err != nil {
			return nil, err
		}
		if line, dup := firstLine[g.Name]; dup {
			return nil, p.errorf(nameNode, "duplicate node group name %q in %s (first declared on line %d; group names must be unique)", g.Name, where, line)
		}
		firstLine[g.Name] = nameNode.Line + p.offset
		groups = append(groups, g)
	}
	return groups, nil
}

// nodeGroup reads one group and returns the node of its name, where a
// duplicate name is reported.
func (p *parser) nodeGroup(n *yaml.Node, where string) (nodegroup.Group, *yaml.Node, error) {
	var g nodegroup.Group
	f, err := p.mapping(n, where, nodeGroupKeys...)
	if err != nil {
		return g, nil, err
	}
	nameNode := f.get("name")
	if nameNode == nil {
		return g, nil, p.errorf(f.node, "%s has no name (add name: nodes)", where)
	}
	if g.Name, err = p.str(nameNode, where+".name"); err != nil {
		return g, nil, err
	}
	if msgs := validation.IsDNS1123Label(g.Name); len(msgs) > 0 {
		return g, nil, p.errorf(nameNode, "%s.name %q is not usable in node names: %s", where, g.Name, msgs[0])
	}
	g, err = p.nodeGroupSettings(f, g, where)
	return g, nameNode, err
}

// nodeGroupSettings reads everything of a group but its name.
func (p *parser) nodeGroupSettings(f *fields, g nodegroup.Group, where string) (nodegroup.Group, error) {
	var err error
	g.Role = nodegroup.RoleNode
	if r := f.get("role"); r != nil {
		role, err := p.str(r, where+".role")
		if err != nil {
			return g, err
		}
		if !contains(roles, role) {
			return g, p.errorf(r, "%s.role %q is not a kops role (use one of: %s)", where, role, strings.Join(roles, ", "))
		}
		g.Role = role
	}
	if s := f.get("size"); s != nil {
		size, err := p.integer(s, where+".size")
		if err != nil {
			return g, err
		}
		if size < 0 || size > maxGroupSize {
			return g, p.errorf(s, "%s.size %d is out of range (use 0 to %d nodes)", where, size, maxGroupSize)
		}
		g.Size = int(size)
	}
	if g.Capacity, err = p.capacity(f.get("capacity"), where+".capacity"); err != nil {
		return g, err
	}
	if s := f.get("maxSurge"); s != nil {
		if g.MaxSurge, err = p.intOrPercent(s, where+".maxSurge", -1); err != nil {
			return g, err
		}
	}
	if s := f.get("maxUnavailable"); s != nil {
		if g.MaxUnavailable, err = p.intOrPercent(s, where+".maxUnavailable", 100); err != nil {
			return g, err
		}
	}
	if s := f.get("spec"); s != nil {
		if g.Spec, err = p.str(s, where+".spec"); err != nil {
			return g, err
		}
	}
	if s := f.get("initialSpec"); s != nil {
		if g.InitialSpec, err = p.str(s, where+".initialSpec"); err != nil {
			return g, err
		}
	}
	if s := f.get("bootTime"); s != nil {
		if g.BootTime, err = p.duration(s, where+".bootTime"); err != nil {
			return g, err
		}
	}
	if g.Taints, err = p.taints(f.get("taints"), where+".taints"); err != nil {
		return g, err
	}
	if g.Labels, err = p.labels(f.get("labels"), where+".labels"); err != nil {
		return g, err
	}
	return g, nil
}

func (p *parser) capacity(n *yaml.Node, where string) (corev1.ResourceList, error) {
	list := corev1.ResourceList{}
	for name, q := range defaultCapacity {
		list[name] = q.DeepCopy()
	}
	if n == nil {
		return list, nil
	}
	f, err := p.mapping(n, where, capacityKeys...)
	if err != nil {
		return nil, err
	}
	for _, key := range f.order {
		v := f.get(key)
		if v == nil {
			continue
		}
		q, err := p.quantity(v, where+"."+key)
		if err != nil {
			return nil, err
		}
		list[corev1.ResourceName(key)] = q
	}
	return list, nil
}

var taintKeys = []string{"key", "value", "effect"}

func (p *parser) taints(n *yaml.Node, where string) ([]corev1.Taint, error) {
	items, err := p.sequence(n, where, "- {key: dedicated, value: batch, effect: NoSchedule}")
	if err != nil {
		return nil, err
	}
	var taints []corev1.Taint
	for i, it := range items {
		at := fmt.Sprintf("%s[%d]", where, i)
		f, err := p.mapping(it, at, taintKeys...)
		if err != nil {
			return nil, err
		}
		var t corev1.Taint
		if t.Key, err = p.str(f.get("key"), at+".key"); err != nil {
			return nil, err
		}
		if msgs := content.IsLabelKey(t.Key); len(msgs) > 0 {
			return nil, p.errorf(firstNode(f.get("key"), it), "%s.key %q is not a valid taint key: %s", at, t.Key, msgs[0])
		}
		if t.Value, err = p.str(f.get("value"), at+".value"); err != nil {
			return nil, err
		}
		if msgs := content.IsLabelValue(t.Value); len(msgs) > 0 {
			return nil, p.errorf(f.get("value"), "%s.value %q is not a valid taint value: %s", at, t.Value, msgs[0])
		}
		effect, err := p.str(f.get("effect"), at+".effect")
		if err != nil {
			return nil, err
		}
		if !contains(taintEffects, effect) {
			return nil, p.errorf(firstNode(f.get("effect"), it), "%s.effect %q is not a taint effect (use one of: %s)", at, effect, strings.Join(taintEffects, ", "))
		}
		t.Effect = corev1.TaintEffect(effect)
		taints = append(taints, t)
	}
	return taints, nil
}

func (p *parser) labels(n *yaml.Node, where string) (map[string]string, error) {
	m, err := p.stringMap(n, where)
	if err != nil || m == nil {
		return nil, err
	}
	for _, e := range m.entries {
		if msgs := content.IsLabelKey(e.key); len(msgs) > 0 {
			return nil, p.errorf(e.keyNode, "%s key %q is not a valid label key: %s", where, e.key, msgs[0])
		}
		if msgs := content.IsLabelValue(e.value); len(msgs) > 0 {
			return nil, p.errorf(e.valueNode, "%s value %q of %q is not a valid label value: %s", where, e.value, e.key, msgs[0])
		}
	}
	return m.values, nil
}

// stringMap is a free-form mapping of text to text (labels, env), with the
// nodes kept for error lines.
type stringMap struct {
	values  map[string]string
	entries []stringEntry
}

type stringEntry struct {
	key, value         string
	keyNode, valueNode *yaml.Node
}

func (p *parser) stringMap(n *yaml.Node, where string) (*stringMap, error) {
	n = resolve(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, "%s must be a mapping of names to values (write it as NAME: value lines)", where)
	}
	m := &stringMap{values: map[string]string{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return nil, p.errorf(k, "%s has a key that is not a plain name", where)
		}
		if _, dup := m.values[k.Value]; dup {
			return nil, p.errorf(k, "duplicate key %q in %s (keep one)", k.Value, where)
		}
		val, err := p.str(v, fmt.Sprintf("%s.%s", where, k.Value))
		if err != nil {
			return nil, err
		}
		m.values[k.Value] = val
		m.entries = append(m.entries, stringEntry{key: k.Value, value: val, keyNode: k, valueNode: v})
	}
	return m, nil
}

// firstNode returns n, or fallback when n is absent, so that a missing value
// is reported at the entry that lacks it.
func firstNode(n, fallback *yaml.Node) *yaml.Node {
	if n == nil {
		return fallback
	}
	return n
}
