package draw

import (
	"fmt"
	"strings"

	"rollscope/model"
	"rollscope/themes"
)

// barNumbers is the fewest cells kept for a bar's figures and its state
// word, so that every bar of a given width is the same length in every
// state.
const barNumbers = len(" 9999/9999 over")

// tailCells is the cells h's figures and state word are given: barNumbers,
// or more when the figures are wider, so that the word is never cut (a
// 10,000-replica rollout's surge reads "12500/12500 full"). It counts the
// widest state word and the limit's figure for both sides, so that the bar
// keeps its length as the state and the used count change; it moves only
// when the used count outgrows the limit's digits (a rollout's first pods).
func tailCells(h model.Headroom) int {
	return max(barNumbers, len(" /")+DigitsOf(max(h.Used, h.Limit))+DigitsOf(h.Limit)+len(" over"))
}

// Bar draws one headroom budget in w cells: label, a bar of Used against
// Limit, the figures and a word for the state that matters:
//
//   - "full" once a rollout cannot take another step on the budget, drawn
//     in the exhausted style;
//   - "over" when more is used than the budget allows (a deployment's first
//     pods, or pods lost to a node), the bar full;
//   - "none" for a budget of 0 by design (maxUnavailable 0, maxSurge 0): a
//     dotted bar, not a solid one, since nothing is wrong.
//
// Pods that are ready but not yet available (minReadySeconds) are drawn ▒,
// apart from the unavailable ones ██.
func Bar(st themes.Styles, label string, h model.Headroom, fill func(...string) string, w int) string {
	nums := fmt.Sprintf(" %d/%d", h.Used, h.Limit)
	state := ""
	switch {
	case h.Limit == 0 && h.Used == 0:
		state = " none"
	case h.Used > h.Limit:
		state = " over"
	case h.Exhausted():
		state = " full"
	}
	reserve := tailCells(h)
	barW := w - len(label) - 1 - reserve
	if barW < 4 {
		return Fit(st.Label.Render(label)+nums+state, w)
	}
	tail := nums + state
	tail += strings.Repeat(" ", max(reserve-len(tail), 0))
	if state == " none" {
		return Fit(st.Label.Render(label)+" "+st.BarFree.Render(strings.Repeat("·", barW))+st.Muted.Render(tail), w)
	}
	filled := barW
	if h.Limit > 0 && h.Used < h.Limit {
		filled = int(int64(barW) * int64(max(h.Used, 0)) / int64(h.Limit))
	}
	waiting := 0
	if h.Used > 0 && h.Waiting > 0 {
		waiting = min(filled, max(int(int64(filled)*int64(h.Waiting)/int64(h.Used)), 1))
	}
	bar := strings.Repeat("█", filled-waiting) + strings.Repeat("▒", waiting)
	free := strings.Repeat("░", barW-filled)
	if state != "" {
		bar = st.BarExhausted.Render(bar)
		tail = st.BarExhausted.Render(tail)
	} else {
		bar = fill(bar)
		tail = st.Text.Render(tail)
	}
	return Fit(st.Label.Render(label)+" "+bar+st.BarFree.Render(free)+tail, w)
}
