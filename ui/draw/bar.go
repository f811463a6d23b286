package draw

import (
	"fmt"
	"strings"

	"rollscope/model"
	"rollscope/themes"
)

// Bar draws one headroom budget in w cells: label, a bar of Used against
// Limit in fill, the numbers, and "full" once a rollout cannot take another
// step on it.
func Bar(st themes.Styles, label string, h model.Headroom, fill func(...string) string, w int) string {
	nums := fmt.Sprintf(" %d/%d", h.Used, h.Limit)
	exhausted := h.Exhausted()
	suffix := ""
	if exhausted {
		suffix = " full"
	}
	barW := w - len(label) - 1 - len(nums) - len(suffix)
	if barW < 4 {
		return Fit(st.Label.Render(label)+nums+suffix, w)
	}
	filled := barW
	if h.Limit > 0 && h.Used < h.Limit {
		filled = int(int64(barW) * int64(max(h.Used, 0)) / int64(h.Limit))
	}
	bar := strings.Repeat("█", filled)
	free := strings.Repeat("░", barW-filled)
	if exhausted {
		bar = st.BarExhausted.Render(bar)
		nums = st.BarExhausted.Render(nums + suffix)
	} else {
		bar = fill(bar)
		nums = st.Text.Render(nums)
	}
	return Fit(st.Label.Render(label)+" "+bar+st.BarFree.Render(free)+nums, w)
}
