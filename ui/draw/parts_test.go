package draw

import "testing"

// What a header gives up first goes first, whatever its place on the line;
// what never goes is cut last.
func TestPartsGiveUpWhatMattersLeast(t *testing.T) {
	parts := []Part{
		{Text: "rollscope", Drop: 3},
		{Text: "  ctx kind-dev", Drop: 4},
		{Text: "  deploy frontend"},
		{Text: " PAUSED "},
		{Text: " READ-ONLY "},
		{Text: "  nginx:1.27 → nginx:1.28", Drop: 5, Min: 12, Cut: func(w int) string { return CutMiddle("  nginx:1.27 → nginx:1.28", w) }},
		{Text: "clock 00:00:17 ×10", Drop: 6, Right: true},
	}
	for _, c := range []struct {
		w    int
		want string
	}{
		{200, "rollscope  ctx kind-dev  deploy frontend PAUSED  READ-ONLY   nginx:1.27 → nginx:1.28" + spaces(200-102) + "clock 00:00:17 ×10"},
		{80, "rollscope  ctx kind-dev  deploy frontend PAUSED  READ-ONLY   nginx… → nginx:1.28"},
		{70, "rollscope  ctx kind-dev  deploy frontend PAUSED  READ-ONLY            "},
		{50, "rollscope  deploy frontend PAUSED  READ-ONLY      "},
		{36, "  deploy frontend PAUSED  READ-ONLY "},
		{20, "  deploy frontend P…"},
	} {
		if got := Parts(parts, c.w); got != c.want {
			t.Errorf("at %d:\n got %q\nwant %q", c.w, got, c.want)
		}
	}
}

func spaces(n int) string {
	s := ""
	for range n {
		s += " "
	}
	return s
}
