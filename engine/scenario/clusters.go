package scenario

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"
)

// clusterKeys are what each entry of clusters: may say: the keys of a
// one-cluster scenario that belong to a cluster, and its name.
var clusterKeys = []string{"name", "namespace", "nodeGroups", "images", "objects", "metrics", "actions"}

// clusters reads clusters: — a list of named clusters, each with its own
// nodes, images, objects and actions — into sc.Clusters. Actions at the
// top level name their cluster (cluster: beside at) and are that
// cluster's, after its own.
func (p *parser) clusters(f *fields, n *yaml.Node, sc *Scenario) error {
	for _, key := range []string{"nodeGroups", "images", "objects"} {
		if k := f.keys[key]; k != nil {
			return p.errorf(k, "%s: belongs to a cluster when the scenario has clusters: (move it under each entry of clusters:)", key)
		}
	}
	sc.ClustersLine = f.keys["clusters"].Line
	items, err := p.sequence(n, "clusters", "- {name: eu-west, objects: ...}")
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return p.errorf(n, "clusters: is empty (list each cluster with its name, or leave clusters: out for one cluster)")
	}
	actions := make([]*yaml.Node, len(items))
	names := make([]string, len(items))
	lines := map[string]int{}
	for i, it := range items {
		where := fmt.Sprintf("clusters[%d]", i)
		cf, err := p.mapping(it, where, clusterKeys...)
		if err != nil {
			return err
		}
		nameNode := cf.get("name")
		if nameNode == nil {
			return p.errorf(it, "%s has no name (add name: eu-west, the name its rows show in the CLUSTER column)", where)
		}
		name, err := p.str(nameNode, where+".name")
		if err != nil {
			return err
		}
		if msgs := validation.IsDNS1123Label(name); len(msgs) > 0 {
			return p.errorf(nameNode, "cluster name %q is not a valid name: %s", name, msgs[0])
		}
		if first, dup := lines[name]; dup {
			return p.errorf(nameNode, "cluster %q is named twice (first on line %d; give each cluster its own name)", name, first)
		}
		lines[name], names[i] = nameNode.Line+p.offset, name
		actions[i] = &yaml.Node{Kind: yaml.SequenceNode, Line: it.Line}
		if a := cf.get("actions"); a != nil {
			if a.Kind != yaml.SequenceNode {
				if _, err := p.sequence(a, where+".actions", "- {at: 60s, pause: deployment/frontend}"); err != nil {
					return err
				}
			}
			actions[i].Content = append(actions[i].Content, a.Content...)
		}
		c := &Scenario{Name: sc.Name, Seed: sc.Seed, Cluster: name, File: sc.File}
		if c.Namespace, err = p.namespace(cf, sc.Namespace); err != nil {
			return err
		}
		sc.Clusters = append(sc.Clusters, c)
	}
	// The top level's actions, each to the cluster it names.
	top, err := p.sequence(f.get("actions"), "actions", "- {at: 60s, cluster: eu-west, pause: deployment/frontend}")
	if err != nil {
		return err
	}
	for i, a := range top {
		i, node, err := p.routed(a, fmt.Sprintf("actions[%d]", i), names)
		if err != nil {
			return err
		}
		actions[i].Content = append(actions[i].Content, node)
	}
	for i, c := range sc.Clusters {
		cf, _ := p.mapping(items[i], "", clusterKeys...)
		if err := p.cluster(cf, actions[i], c); err != nil {
			return err
		}
	}
	return nil
}

// routed is a top-level action of a scenario with clusters: the index in
// names of the cluster its cluster: names, and the action without it.
func (p *parser) routed(a *yaml.Node, where string, names []string) (int, *yaml.Node, error) {
	if a.Kind != yaml.MappingNode {
		return 0, nil, p.errorf(a, "%s must be a mapping (write it as {at: 60s, cluster: NAME, pause: deployment/NAME})", where)
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: a.Tag, Style: a.Style, Line: a.Line, Column: a.Column}
	at := -1
	for k := 0; k+1 < len(a.Content); k += 2 {
		key, val := resolve(a.Content[k]), a.Content[k+1]
		if key.Kind != yaml.ScalarNode || key.Value != "cluster" {
			out.Content = append(out.Content, a.Content[k], val)
			continue
		}
		name, err := p.str(val, where+".cluster")
		if err != nil {
			return 0, nil, err
		}
		if at = slices.Index(names, name); at < 0 {
			return 0, nil, p.errorf(val, "%s names cluster %q, which the scenario does not have (its clusters: %s)", where, name, strings.Join(names, ", "))
		}
	}
	if at < 0 {
		return 0, nil, p.errorf(a, "%s names no cluster (add cluster: %s, or write it under that cluster's actions:)", where, names[0])
	}
	return at, out, nil
}

// ClusterNames are the names of the scenario's clusters, in file order.
func (sc *Scenario) ClusterNames() []string {
	out := make([]string, len(sc.Clusters))
	for i, c := range sc.Clusters {
		out[i] = c.Cluster
	}
	return out
}

// BadInput marks a scenario's errors as bad input (exit 2), whoever
// returns them.
func (e *Error) BadInput() bool { return true }
