package draw

import (
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// cells is ansi.StringWidth(s), found quickly for what the console draws:
// printable ASCII, CSI sequences (colours) and single-cell glyphs — pod
// dots, bars, box lines, arrows, state marks. Measuring those by grapheme
// cluster was a twentieth of a busy fleet's CPU, twice for each changed line
// (when it is fitted, and when the terminal writes it). Anything else — a
// wide or combining character, a variation selector, another escape — is
// measured by ansi.StringWidth, so the answer is always its.
func cells(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x7e:
			n++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			// Parameters (0x30–0x3f), intermediates (0x20–0x2f), then
			// the final byte (0x40–0x7e): no cells.
			j := i + 2
			for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
				j++
			}
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
				j++
			}
			if j == len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s)
			}
			i = j + 1
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !oneCell(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// Blocks of characters none of which is combining, a format character or a
// variation selector, nor joins a grapheme cluster with a neighbour that is
// ASCII or from these blocks: what of them ansi.StringWidth measures as one
// cell alone (oneCells) is one cell wherever it stands.
var oneCellBlocks = [][2]rune{
	{0x00a1, 0x02ff}, // Latin-1 Supplement to Spacing Modifier Letters
	{0x2010, 0x2027}, // dashes, quotes, bullets, "…"
	{0x2030, 0x205e}, // per mille, primes, "‖"…
	{0x2190, 0x23ff}, // arrows, mathematical operators, technical
	{0x2500, 0x27bf}, // box drawing, blocks, geometric shapes, symbols, dingbats
}

var (
	oneCellsOnce sync.Once
	oneCells     []bool // by rune - oneCellBlocks[0][0]
)

func oneCell(r rune) bool {
	oneCellsOnce.Do(func() {
		first, last := oneCellBlocks[0][0], oneCellBlocks[len(oneCellBlocks)-1][1]
		oneCells = make([]bool, last-first+1)
		for _, b := range oneCellBlocks {
			for r := b[0]; r <= b[1]; r++ {
				oneCells[r-first] = ansi.StringWidth(string(r)) == 1
			}
		}
	})
	i := int(r - oneCellBlocks[0][0])
	return i >= 0 && i < len(oneCells) && oneCells[i]
}
