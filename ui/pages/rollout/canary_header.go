package rollout

import (
	"time"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// canaryLine is the header's line for a guided canary: its step, its pods
// on the new revision and what it waits for, in the colour of its health.
// While a step holds, the strategy line above shows the deployment's own
// settings, which the canary saved and puts back.
func canaryLine(st themes.Styles, c cluster.CanaryView, now time.Time, w int) string {
	text := "◆ " + c.Sentence(now)
	switch {
	case c.Phase == model.CanaryFailed || c.Gates.Failed != "":
		return draw.Fit(st.Bad.Render(text), w)
	case c.Phase == model.CanaryInconclusive:
		return draw.Fit(st.Warn.Render(text), w)
	case c.Phase == model.CanaryHolding && c.Gates.Healthy:
		return draw.Fit(st.OK.Render(text), w)
	}
	return draw.Fit(st.Warn.Render(text), w)
}

// canaryHold says, after the deployment's own settings, what the canary
// holds it at meanwhile — what the surge bar below counts against.
func canaryHold(st themes.Styles, c *cluster.CanaryView) string {
	if c == nil || c.Phase == model.CanaryRolling {
		return ""
	}
	return st.Muted.Render("  · canary holds surge " + draw.Itoa(c.Want) + ", unavailable 0")
}
