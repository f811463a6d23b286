package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// An undo diff longer than the dialog says so and scrolls.
func TestUndoDiffScrollsAndSaysThereIsMore(t *testing.T) {
	acts := oneContainer()
	for i := range 40 {
		acts.diff = append(acts.diff, cluster.DiffLine{Op: '+', Text: "line " + draw.Itoa(i)})
	}
	m := newActionModel(t, acts, midRollout(), nil)
	m = run(m, press("u"), press("enter"))
	s := plain(m)
	if !strings.Contains(s, "more") || !strings.Contains(s, "+ line 0") || strings.Contains(s, "+ line 39") {
		t.Fatalf("a long diff does not say there is more:\n%s", s)
	}
	m = run(m, press("end"))
	s = plain(m)
	if !strings.Contains(s, "+ line 39") || !strings.Contains(s, "above") {
		t.Errorf("end does not bring the diff's last line into view:\n%s", s)
	}
	if !strings.Contains(s, "y send · n/esc cancel") {
		t.Errorf("scrolled, the dialog lost its y/n line:\n%s", s)
	}
}

// Moving to a row in the picker opens that row, even when the typed text
// is another deployment's whole name.
func TestPickerOpensTheHighlightedRow(t *testing.T) {
	src := midRollout()
	src.deployments = append(src.deployments, cluster.DeploymentSummary{Namespace: "shop", Name: "checkout-v2", Replicas: 1})
	m := newTestModel(t, src, nil, 80, 24)
	m = send(m, append(append([]tea.Msg{press(":")}, typed("checkout")...), press("down"), press("enter"))...)
	if m.s.Deployment != "checkout-v2" {
		t.Errorf("opened %q, want the highlighted checkout-v2", m.s.Deployment)
	}
	m = send(m, append(append([]tea.Msg{press(":")}, typed("checkout")...), press("enter"))...)
	if m.s.Deployment != "checkout" {
		t.Errorf("typed checkout and enter opened %q", m.s.Deployment)
	}
}
