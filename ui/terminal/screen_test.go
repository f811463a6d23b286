package terminal

import (
	"bytes"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// vt is as much of a terminal as Screen uses: text, cursor moves, erasing,
// and autowrap (a line wider than the screen would spill onto the next). It
// keeps what each cell shows, without styles, and the styles it was sent.
type vt struct {
	w, h  int
	cells [][]string
	x, y  int
	wrap  bool // the cursor is past the last column (pending wrap)
	sgr   []string
}

func newVT(w, h int) *vt {
	t := &vt{w: w, h: h}
	t.erase()
	return t
}

func (t *vt) erase() {
	t.cells = make([][]string, t.h)
	for y := range t.cells {
		t.blank(y, 0)
	}
}

func (t *vt) blank(y, from int) {
	if t.cells[y] == nil {
		t.cells[y] = make([]string, t.w)
	}
	for x := from; x < t.w; x++ {
		t.cells[y][x] = " "
	}
}

func (t *vt) Write(b []byte) (int, error) {
	p := ansi.NewParser()
	var state byte
	for rest := b; len(rest) > 0; {
		seq, width, n, next := ansi.DecodeSequence(rest, state, p)
		rest, state = rest[n:], next
		if width > 0 {
			if t.wrap {
				t.x, t.y, t.wrap = 0, t.y+1, false
			}
			if t.y < t.h {
				t.cells[t.y][t.x] = string(seq)
				for i := 1; i < width && t.x+i < t.w; i++ {
					t.cells[t.y][t.x+i] = ""
				}
			}
			t.x += width
			if t.x >= t.w {
				t.x, t.wrap = t.w-1, true
			}
			continue
		}
		if !ansi.HasCsiPrefix(seq) {
			continue
		}
		cmd := ansi.Cmd(p.Command())
		if cmd.Prefix() != 0 {
			continue // modes
		}
		arg := func(i, def int) int { v, _, _ := p.Params().Param(i, def); return v }
		switch cmd.Final() {
		case 'H':
			t.y, t.x, t.wrap = arg(0, 1)-1, arg(1, 1)-1, false
		case 'K':
			switch arg(0, 0) {
			case 0:
				t.blank(t.y, t.x)
			case 2:
				t.blank(t.y, 0)
			}
		case 'J':
			if arg(0, 0) == 2 {
				t.erase()
			}
		case 'm':
			t.sgr = append(t.sgr, string(seq))
		}
	}
	return len(b), nil
}

func (t *vt) String() string {
	lines := make([]string, t.h)
	for y, row := range t.cells {
		lines[y] = strings.Join(row, "")
	}
	return strings.Join(lines, "\n")
}

// want is frame as a w×h terminal shows it: each line padded or cut to w.
func want(frame string, w, h int) string {
	lines := strings.Split(ansi.Strip(frame), "\n")
	out := make([]string, h)
	for y := range out {
		l := ""
		if y < len(lines) {
			l = ansi.Truncate(lines[y], w, "")
		}
		out[y] = l + strings.Repeat(" ", w-ansi.StringWidth(l))
	}
	return strings.Join(out, "\n")
}

var (
	red  = lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000"))
	bold = lipgloss.NewStyle().Bold(true)
)

// frames are what a console draws one after another: counts that move,
// rows that come and go, a line that shrinks, a wide glyph, a frame with
// fewer lines, one with a line too wide.
func frames(w int) []string {
	pad := func(s string) string { return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0)) }
	return []string{
		strings.Join([]string{pad(bold.Render("rollscope") + " 1/4"), pad(red.Render("●") + " api-1 Running"), pad("◌ api-2 Pending"), pad("")}, "\n"),
		strings.Join([]string{pad(bold.Render("rollscope") + " 2/4"), pad(red.Render("●") + " api-1 Running"), pad("● api-2 Running"), pad("")}, "\n"),
		strings.Join([]string{pad(bold.Render("rollscope") + " 2/4"), "short", pad("● api-2 Running"), pad("界 wide")}, "\n"),
		strings.Join([]string{pad(bold.Render("rollscope") + " 4/4"), pad("done")}, "\n"),
		strings.Join([]string{strings.Repeat("x", w+7), pad("done"), pad("◌ api-3"), red.Render(strings.Repeat("y", w))}, "\n"),
	}
}

func TestTheTerminalShowsEveryFrameExactly(t *testing.T) {
	const w, h = 24, 4
	term := newVT(w, h)
	s := NewScreen(term, colorprofile.TrueColor, w, h)
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	for i, f := range frames(w) {
		if err := s.Draw(f, "rollscope"); err != nil {
			t.Fatal(err)
		}
		if got, want := term.String(), want(f, w, h); got != want {
			t.Fatalf("frame %d: the terminal shows\n%s\nwant\n%s", i, got, want)
		}
	}
}

// recorder counts what reaches the terminal.
type recorder struct{ bytes.Buffer }

func TestOnlyTheLinesThatChangedAreWritten(t *testing.T) {
	const w, h = 24, 4
	var out recorder
	s := NewScreen(&out, colorprofile.TrueColor, w, h)
	f := frames(w)
	_ = s.Draw(f[0], "rollscope")
	if !strings.Contains(out.String(), "api-2") || !strings.Contains(out.String(), ansi.EraseEntireScreen) {
		t.Fatalf("the first frame was not drawn whole: %q", out.String())
	}
	out.Reset()
	_ = s.Draw(f[0], "rollscope")
	if out.Len() != 0 {
		t.Errorf("an unchanged frame wrote %q", out.String())
	}
	_ = s.Draw(f[1], "rollscope")
	got := ansi.Strip(out.String())
	if !strings.Contains(got, "2/4") || !strings.Contains(got, "api-2 Running") || strings.Contains(got, "api-1") {
		t.Errorf("a frame with two changed lines wrote %q, want those two lines only", got)
	}
	out.Reset()
	s.Resize(w, h)
	_ = s.Draw(f[1], "rollscope")
	if got := ansi.Strip(out.String()); !strings.Contains(got, "api-1") {
		t.Errorf("after a resize the frame was not drawn whole: %q", got)
	}
}

func TestTheTitleIsWrittenWhenItChanges(t *testing.T) {
	var out recorder
	s := NewScreen(&out, colorprofile.TrueColor, 10, 2)
	_ = s.Draw("a", "rollscope shop/api")
	_ = s.Draw("b", "rollscope shop/api")
	_ = s.Draw("b", "rollscope fleet")
	if got := strings.Count(out.String(), "\x1b]2;"); got != 2 {
		t.Errorf("the title was written %d times for two titles: %q", got, out.String())
	}
}

// NO_COLOR's profile keeps bold and drops colours, as Bubble Tea's renderer
// did.
func TestColoursFollowTheTerminalsProfile(t *testing.T) {
	const w, h = 24, 4
	for _, tc := range []struct {
		profile colorprofile.Profile
		colour  bool
	}{{colorprofile.TrueColor, true}, {colorprofile.ANSI256, true}, {colorprofile.ASCII, false}} {
		term := newVT(w, h)
		s := NewScreen(term, tc.profile, w, h)
		_ = s.Draw(frames(w)[0], "")
		sgr := strings.Join(term.sgr, "")
		if strings.Contains(sgr, "38;") != tc.colour {
			t.Errorf("profile %v: colour sequences %q, want colour %v", tc.profile, sgr, tc.colour)
		}
		if !strings.Contains(sgr, "\x1b[1m") && !strings.Contains(sgr, ";1m") && !strings.Contains(sgr, "[1;") {
			t.Errorf("profile %v lost bold: %q", tc.profile, sgr)
		}
	}
}

// Style sequences converted one at a time, and kept, come out as
// colorprofile converts the whole line.
func TestStylesConvertAsColorprofileDoes(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII} {
		s := NewScreen(&recorder{}, p, 24, 4)
		for round := range 2 { // the second from the kept sequences
			for _, f := range frames(24) {
				for _, l := range strings.Split(f, "\n") {
					var want bytes.Buffer
					w := colorprofile.Writer{Forward: &want, Profile: p}
					_, _ = w.WriteString(l)
					s.buf.Reset()
					s.styled(l)
					if got := s.buf.String(); got != want.String() {
						t.Fatalf("profile %v, round %d: %q became %q, colorprofile makes %q", p, round, l, got, want.String())
					}
				}
			}
		}
	}
}
