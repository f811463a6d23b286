package workload

import (
	"strings"
	"time"

	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// An Argo Rollout on the page: the title, Argo's status line, the header
// lines of the read model (strategy and step, pause, images, what is not
// shown), and its ReplicaSets — stable, canary, older — with their pods.
// Its steps and analysis are in the view (cluster.ArgoRolloutView) for a
// richer page to draw.

// ArgoSource is what the view reads of a Rollout; cluster.Cluster answers
// it.
type ArgoSource interface {
	ArgoRollout(namespace, name string, now time.Time) (cluster.ArgoRolloutView, bool)
}

func (v *View) readArgo() {
	src, ok := v.s.Src.(ArgoSource)
	if !ok {
		v.found = false
		return
	}
	v.ro, v.found = src.ArgoRollout(v.namespace, v.name, v.s.Now)
}

// argoRollout draws the Rollout.
func (v *View) argoRollout(w int) []string {
	st, r := v.s.Styles, v.ro
	out := []string{v.title(w, "desired", draw.Itoa(r.Desired), "updated", draw.Itoa(r.Updated), "available", draw.Itoa(r.Available),
		"revision", draw.Itoa(r.Revision), "strategy", r.Strategy)}
	out = append(out, v.statusLines(r.Status, r.Done, w)...)
	for i, l := range r.Header {
		style := st.Text.Render
		if i >= len(r.Header)-len(r.NotShown) {
			style = st.Muted.Render
		}
		out = append(out, draw.Hanging("", style, l, w, 2)...)
	}
	out = append(out, draw.Fit(st.Label.Render("replica sets"), w))
	for _, rs := range r.ReplicaSets {
		role := "old"
		switch {
		case rs.Hash == r.StableHash:
			role = st.OK.Render("stable")
		case rs.Hash == r.CurrentHash && r.Strategy == "blueGreen":
			role = st.Warn.Render("preview")
		case rs.Hash == r.CurrentHash:
			role = st.Warn.Render("canary")
		}
		if rs.Hash == r.ActiveHash && r.Strategy == "blueGreen" {
			role += st.Accent.Render(" active")
		}
		var glyphs strings.Builder
		for _, p := range rs.Pods {
			i := draw.StateIndex(p.State)
			glyphs.WriteString(v.s.Paints.Pod[i].On(draw.PodGlyphs[i]))
		}
		line := "  " + draw.Fit(st.Text.Render(rs.Name), 28) + " " + draw.Fit(role, 16) + " rev " + draw.Fit(draw.Itoa(rs.Revision), 4) +
			" " + draw.Itoa(rs.Available) + "/" + draw.Itoa(rs.Desired) + " " + glyphs.String()
		out = append(out, draw.Fit(line, w))
	}
	return out
}
