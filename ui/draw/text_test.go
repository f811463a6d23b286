package draw

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

func TestFit(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"\x1b[1mbold text\x1b[m", 6, "bold …"},
		{"●●●", 2, "●…"},
		{"x", 0, ""},
	}
	for _, tc := range tests {
		got := Fit(tc.in, tc.w)
		if ansi.Strip(got) != tc.want || ansi.StringWidth(got) != tc.w {
			t.Errorf("Fit(%q, %d) = %q", tc.in, tc.w, got)
		}
	}
}

var t0 = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

func TestAge(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0s"}, {45 * time.Second, "45s"}, {119 * time.Second, "119s"}, {5 * time.Minute, "5m"},
		{3 * time.Hour, "3h"}, {47 * time.Hour, "47h"}, {72 * time.Hour, "3d"},
		// Years old (a node's DaemonSet pod, a first revision): years from
		// two on, never a fifth cell.
		{729 * 24 * time.Hour, "729d"}, {730 * 24 * time.Hour, "2y"}, {1100 * 24 * time.Hour, "3y"}, {40 * 365 * 24 * time.Hour, "40y"},
	}
	for _, tc := range tests {
		if got := Age(t0, t0.Add(-tc.d)); got != tc.want {
			t.Errorf("Age(%v) = %s, want %s", tc.d, got, tc.want)
		}
	}
	if Age(t0, time.Time{}) != "-" {
		t.Error("unknown creation time should read -")
	}
}

func TestLayoutColumnsDropsFromTheRightAndKeepsFlexMinimum(t *testing.T) {
	cols := []Column{{Title: "NAME", Min: 10}, {Title: "A", Width: 5}, {Title: "B", Width: 20}, {Title: "C", Width: 3}}
	tests := []struct {
		total int
		want  []int
	}{
		{60, []int{29, 5, 20, 3}},
		{30, []int{24, 5, 0, 0}}, // B does not fit, and C after it goes too
		{5, []int{10, 0, 0, 0}},
	}
	for _, tc := range tests {
		got := Columns(cols, tc.total)
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("total %d: widths %v, want %v", tc.total, got, tc.want)
				break
			}
		}
	}
}

func TestRowCacheRedrawsOnlyWhenSomethingChanged(t *testing.T) {
	var l List
	draws := 0
	draw := func() string { draws++; return "row" }
	l.Render("pod-a", "Running|1/1", 80, false, draw)
	l.Render("pod-a", "Running|1/1", 80, false, draw)
	if draws != 1 {
		t.Fatalf("unchanged row drawn %d times", draws)
	}
	l.Render("pod-a", "Running|0/1", 80, false, draw)
	l.Render("pod-a", "Running|0/1", 100, false, draw)
	l.Render("pod-a", "Running|0/1", 100, true, draw)
	if draws != 4 {
		t.Errorf("content, width and selection changes: %d draws, want 4", draws)
	}
}

// A view's reasons wrap under their first word, every line is its width,
// and the view stops at its height.
func TestLinesWrapUnderTheIndentAndStopAtTheHeight(t *testing.T) {
	v := Lines{W: 16, H: 3}
	v.Add("title")
	v.Wrap(func(s ...string) string { return s[0] }, " ✖ ", "the image is not a valid reference")
	want := "title           \n ✖ the image is \n   not a valid  "
	if got := v.String(); got != want || !v.Full() {
		t.Errorf("lines = %q, want %q", got, want)
	}
}

func TestWrapAtMostMarksTheCut(t *testing.T) {
	text := "roll nodes: stopped · 2/4 replaced — n resumes it (the outdated nodes left, same settings)"
	got := WrapAtMost(text, 30, 2)
	if len(got) != 2 {
		t.Fatalf("lines = %q, want 2", got)
	}
	if !strings.HasSuffix(got[1], "…") || WidthOf(got[1]) > 30 {
		t.Errorf("the last line kept = %q, want it ending in … within 30 cells", got[1])
	}
	if all := WrapAtMost(text, 30, 10); strings.Contains(strings.Join(all, ""), "…") {
		t.Errorf("a text that fits is marked cut: %q", all)
	}
}

func TestColumnsDropTheLeastUsefulFirst(t *testing.T) {
	cols := []Column{
		{Title: "NAME", Width: 0, Min: 8}, {Title: "GROUP", Width: 6, Drop: 3}, {Title: "READY", Width: 5},
		{Title: "DRAIN", Width: 6, Drop: 1}, {Title: "TAINTS", Width: 0, Min: 6, Drop: 4},
	}
	kept := func(total int) string {
		var out []string
		for i, w := range Columns(cols, total) {
			if w > 0 {
				out = append(out, cols[i].Title)
			}
		}
		return strings.Join(out, " ")
	}
	for total, want := range map[int]string{
		40: "NAME GROUP READY DRAIN TAINTS", // 8+6+5+6+6 and 4 spaces = 35
		30: "NAME GROUP READY DRAIN",        // TAINTS goes first
		25: "NAME READY DRAIN",              // then GROUP; DRAIN stays
		16: "NAME READY",
	} {
		if got := kept(total); got != want {
			t.Errorf("at %d columns kept %q, want %q", total, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 12000: "12,000", 150000: "150,000", 1234567: "1,234,567"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestDigitsOfIsTheWidthOfItoa(t *testing.T) {
	for _, n := range []int64{0, 7, 9, 10, 99, 100, 9999, 10000, 12408, -1, -10, 1<<63 - 1, -1 << 63} {
		if got, want := DigitsOf(n), len(Itoa(n)); got != want {
			t.Errorf("DigitsOf(%d) = %d, want %d", n, got, want)
		}
	}
}
