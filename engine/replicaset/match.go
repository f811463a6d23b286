package replicaset

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// labelMatcher tests pods against a selector on every sync, for every pod of
// a ReplicaSet. Selectors made only of equality requirements (matchLabels,
// the common case) are checked with one lookup per label; anything else
// falls back to the selector itself.
type labelMatcher struct {
	sel   labels.Selector
	equal [][2]string // key, value; nil when the selector needs the general path
	// key is the selector's String form: two matchers with the same key
	// select the same pods.
	key string
}

func newLabelMatcher(sel labels.Selector) labelMatcher {
	key := sel.String()
	reqs, selectable := sel.Requirements()
	if !selectable {
		return labelMatcher{sel: sel, key: key}
	}
	m := labelMatcher{sel: sel, key: key, equal: make([][2]string, 0, len(reqs))}
	for _, r := range reqs {
		op := r.Operator()
		vals := r.ValuesUnsorted()
		if (op != selection.Equals && op != selection.DoubleEquals && op != selection.In) || len(vals) != 1 {
			return labelMatcher{sel: sel, key: key}
		}
		m.equal = append(m.equal, [2]string{r.Key(), vals[0]})
	}
	return m
}

// Matches reports whether a pod with these labels is selected.
func (m labelMatcher) Matches(podLabels map[string]string) bool {
	if m.equal == nil {
		return m.sel.Matches(labels.Set(podLabels))
	}
	for _, kv := range m.equal {
		if v, ok := podLabels[kv[0]]; !ok || v != kv[1] {
			return false
		}
	}
	return true
}
