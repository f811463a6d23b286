package draw

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// cells is ansi.StringWidth, whatever the string: random strings of ASCII,
// colours and other escapes, the console's glyphs, and the characters that
// are not one cell or join their neighbours (wide, combining, variation
// selectors, joiners, emoji and their modifiers).
func TestCellsIsStringWidth(t *testing.T) {
	parts := []string{"a", "Z", " ", "~", "\x1b[31m", "\x1b[38;2;1;2;3m", "\x1b[0m", "\x1b[ 1m", "\x1b[1 q", "\x1b[?25h", "\x1b[1;", "\x1b]8;;x\x1b\\", "\x1b", "\x1b[", "\t", "\n",
		"●", "◐", "○", "◌", "█", "▒", "░", "│", "─", "→", "⇄", "↻", "✔", "✖", "‖", "…", "·", "▶", "■", "é",
		"界", "⌚", "\u0301", "\ufe0f", "\u200d", "👍", "\U0001f3fb", "☝", "🇫", "🇷", "\u00ad", "\u2028", "ｱ", "\u1100", "\u1161"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		if got, want := cells(s), ansi.StringWidth(s); got != want {
			t.Fatalf("cells(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	}
	// Every rune of the blocks, alone and between others.
	for _, bl := range oneCellBlocks {
		for r := bl[0]; r <= bl[1]; r++ {
			for _, s := range []string{string(r), "a" + string(r) + "b", string(r) + string(r), string(r) + "\u0301", "\x1b[1m" + string(r)} {
				if got, want := cells(s), ansi.StringWidth(s); got != want {
					t.Fatalf("cells(%q) = %d, ansi.StringWidth = %d", s, got, want)
				}
			}
		}
	}
}

func BenchmarkWidthOfAColouredGridLine(b *testing.B) {
	line := "  " + strings.Repeat("\x1b[32m●●●●●●●●●●\x1b[0m\x1b[33m◐◐◐\x1b[0m", 12)
	b.Run("cells", func(b *testing.B) {
		for b.Loop() {
			cells(line)
		}
	})
	b.Run("ansi.StringWidth", func(b *testing.B) {
		for b.Loop() {
			ansi.StringWidth(line)
		}
	})
}
