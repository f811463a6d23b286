package scheduler

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// nodeChoice is the part of a pod's spec that restricts which nodes it may
// run on: spec.nodeSelector and the required terms of spec.affinity.nodeAffinity.
// It is parsed once per scheduling attempt, then matched against each node.
type nodeChoice struct {
	selector labels.Selector // nil when the pod has no nodeSelector
	required bool            // the pod has required node affinity
	terms    []nodeTerm      // ORed; a pod with required affinity and no usable term fits nowhere
}

// nodeTerm is one NodeSelectorTerm: its expressions and fields are ANDed.
type nodeTerm struct {
	labels labels.Selector
	fields []corev1.NodeSelectorRequirement
}

func newNodeChoice(p *corev1.Pod) nodeChoice {
	var c nodeChoice
	if len(p.Spec.NodeSelector) > 0 {
		c.selector = labels.SelectorFromSet(p.Spec.NodeSelector)
	}
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return c
	}
	c.required = true
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		if term, ok := parseTerm(t); ok {
			c.terms = append(c.terms, term)
		}
	}
	return c
}

var operators = map[corev1.NodeSelectorOperator]selection.Operator{
	corev1.NodeSelectorOpIn:           selection.In,
	corev1.NodeSelectorOpNotIn:        selection.NotIn,
	corev1.NodeSelectorOpExists:       selection.Exists,
	corev1.NodeSelectorOpDoesNotExist: selection.DoesNotExist,
	corev1.NodeSelectorOpGt:           selection.GreaterThan,
	corev1.NodeSelectorOpLt:           selection.LessThan,
}

// parseTerm turns a term into matchers. Upstream treats an empty term, or
// one with an invalid requirement, as matching no node; so do we, by
// dropping it.
func parseTerm(t corev1.NodeSelectorTerm) (nodeTerm, bool) {
	if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
		return nodeTerm{}, false
	}
	sel := labels.NewSelector()
	for _, e := range t.MatchExpressions {
		op, ok := operators[e.Operator]
		if !ok {
			return nodeTerm{}, false
		}
		r, err := labels.NewRequirement(e.Key, op, e.Values)
		if err != nil {
			return nodeTerm{}, false
		}
		sel = sel.Add(*r)
	}
	for _, f := range t.MatchFields {
		if f.Key != "metadata.name" || (f.Operator != corev1.NodeSelectorOpIn && f.Operator != corev1.NodeSelectorOpNotIn) {
			return nodeTerm{}, false
		}
	}
	return nodeTerm{labels: sel, fields: t.MatchFields}, true
}

func (c nodeChoice) matches(n *corev1.Node) bool {
	set := labels.Set(n.Labels)
	if c.selector != nil && !c.selector.Matches(set) {
		return false
	}
	if !c.required {
		return true
	}
	for _, t := range c.terms {
		if t.matches(n.Name, set) {
			return true
		}
	}
	return false
}

func (t nodeTerm) matches(name string, set labels.Set) bool {
	if !t.labels.Matches(set) {
		return false
	}
	for _, f := range t.fields {
		in := slices.Contains(f.Values, name)
		if (f.Operator == corev1.NodeSelectorOpIn) != in {
			return false
		}
	}
	return true
}
