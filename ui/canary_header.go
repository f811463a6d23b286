package ui

import (
	"time"

	"rollscope/model"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// canaryLine is the header's line for a guided canary: its step, its pods
// on the new revision and what it waits for, in the colour of its health.
// While a step holds, the strategy line above shows the deployment's own
// settings, which the canary saved and puts back.
func canaryLine(st themes.Styles, c model.CanaryView, now time.Time, w int) string {
	text := "◆ " + c.Sentence(now)
	switch {
	case c.Phase == model.CanaryFailed || c.Gates.Failed != "":
		return draw.Fit(st.Bad.Render(text), w)
	case c.Phase == model.CanaryHolding && c.Gates.Healthy:
		return draw.Fit(st.OK.Render(text), w)
	}
	return draw.Fit(st.Warn.Render(text), w)
}
