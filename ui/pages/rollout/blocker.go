package rollout

import (
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// blockerLine is the line under kubectl's status sentence that answers
// "why is it stuck": the one thing holding the rollout back, with its
// evidence (cluster.Blocker). A finished rollout with nothing in its way has
// none.
func blockerLine(st themes.Styles, r cluster.RolloutView, w int) (string, bool) {
	if r.Blocker == "" {
		return "", false
	}
	return draw.Fit(st.Label.Render("why")+" "+st.Text.Render(r.Blocker), w), true
}

// blockerHeight is blockerLine's height, for the layout.
func blockerHeight(r cluster.RolloutView) int {
	if r.Blocker == "" {
		return 0
	}
	return 1
}
