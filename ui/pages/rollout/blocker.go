package rollout

import (
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// blockerLines are the line (two when it is long) under kubectl's status sentence that answers
// "why is it stuck": the one thing holding the rollout back, with its
// evidence (cluster.Blocker). A finished rollout with nothing in its way has
// none.
func blockerLines(st themes.Styles, r cluster.RolloutView, w int) []string {
	if r.Blocker == "" {
		return nil
	}
	return draw.Hanging(st.Label.Render("why")+" ", st.Text.Render, r.Blocker, w, sentenceLines)
}

// blockerHeight is blockerLines' height at width w, for the layout.
func blockerHeight(r cluster.RolloutView, w int) int {
	if r.Blocker == "" {
		return 0
	}
	return len(draw.WrapAtMost(r.Blocker, max(w-len("why "), 1), sentenceLines))
}
