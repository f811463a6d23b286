package replicaset

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// The fast path must agree with the selector it stands for.
func TestLabelMatcherAgreesWithTheSelector(t *testing.T) {
	selectors := []*metav1.LabelSelector{
		{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "abc"}},
		{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"a"}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"a", "b"}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"a"}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpExists}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpDoesNotExist}}},
		{},
	}
	pods := []map[string]string{
		nil,
		{"app": "web"},
		{"app": "web", "pod-template-hash": "abc"},
		{"app": "web", "pod-template-hash": "xyz", "tier": "a"},
		{"app": "web", "tier": "b"},
		{"app": "api", "pod-template-hash": "abc", "tier": "a"},
	}
	for _, ls := range selectors {
		sel, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil {
			t.Fatal(err)
		}
		m := newLabelMatcher(sel)
		for _, p := range pods {
			if got, want := m.Matches(p), sel.Matches(labels.Set(p)); got != want {
				t.Errorf("selector %q on %v: matcher says %v, selector %v", sel, p, got, want)
			}
		}
	}
}
