// Package terminal draws the console's frames on the terminal, writing only
// the lines that changed since the frame before.
//
// Why not Bubble Tea's renderer: it parses every frame's whole string into
// cells and diffs all of them against the screen, ~2.6 ms for a 200×50
// frame whatever changed, and wakes 60 times a second to look for a new
// frame. During a rollout a frame changes a count and a few rows; this
// screen compares the frame's lines as strings and writes those that
// differ, when the frame is made, with no ticker between the model and the
// terminal.
//
// Console is the terminal while the console runs on it: Bubble Tea reads
// the keys (raw) and runs the model, and draws nothing itself; each frame,
// as View makes it, is written here line by line.
package terminal

import (
	"bytes"
	"io"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"rollscope/ui/draw"
)

// Screen is the terminal's alternate screen as last drawn.
type Screen struct {
	out  io.Writer
	w, h int
	// last are the lines on the terminal; nil when it must be drawn whole
	// (first frame, resize).
	last  []string
	title string
	buf   bytes.Buffer
	// colors brings the frame's styles down to what the terminal shows
	// (NO_COLOR, 256 or 16 colours), as Bubble Tea's renderer did; sgr
	// keeps what each style sequence became, since a theme has a few dozen
	// and converting a colour costs more than the rest of the line.
	colors  colorprofile.Writer
	profile colorprofile.Profile
	sgr     map[string]string
	scratch bytes.Buffer
}

// NewScreen draws on out, in the colours of profile, a terminal of w×h.
func NewScreen(out io.Writer, profile colorprofile.Profile, w, h int) *Screen {
	s := &Screen{out: out, w: w, h: h, profile: profile, sgr: map[string]string{}}
	s.colors = colorprofile.Writer{Forward: &s.scratch, Profile: profile}
	return s
}

// Modes the console's screen runs in, and the sequences that end them.
const (
	open = ansi.SetModeAltScreenSaveCursor + ansi.ResetModeTextCursorEnable +
		ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr + ansi.SetModeBracketedPaste +
		ansi.EraseEntireScreen
	closing = ansi.ResetModeBracketedPaste + ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseExtSgr +
		ansi.SetModeTextCursorEnable + ansi.ResetModeAltScreenSaveCursor
)

// Open enters the alternate screen with the cursor hidden and the mouse
// reported.
func (s *Screen) Open() error {
	s.last = nil
	_, err := io.WriteString(s.out, open)
	return err
}

// Close leaves the alternate screen as the terminal was before Open.
func (s *Screen) Close() error {
	_, err := io.WriteString(s.out, closing)
	return err
}

// Resize is the terminal's new size: the next frame is drawn whole.
func (s *Screen) Resize(w, h int) {
	s.w, s.h, s.last = w, h, nil
}

// Draw shows frame (lines separated by "\n") and the window's title,
// writing only the lines that differ from the frame drawn before.
func (s *Screen) Draw(frame, title string) error {
	lines := strings.Split(frame, "\n")
	if len(lines) > s.h {
		lines = lines[:s.h]
	}
	s.buf.Reset()
	whole := s.last == nil
	if whole {
		s.buf.WriteString(ansi.ResetStyle + ansi.EraseEntireScreen)
	}
	if title != s.title {
		s.title = title
		s.buf.WriteString(ansi.SetWindowTitle(title))
	}
	for y, l := range lines {
		if !whole && y < len(s.last) && s.last[y] == l {
			continue
		}
		s.line(y, l)
	}
	// Lines the frame no longer has.
	for y := len(lines); !whole && y < len(s.last); y++ {
		s.buf.WriteString(ansi.CursorPosition(1, y+1) + ansi.EraseEntireLine)
	}
	s.last = lines
	if s.buf.Len() == 0 {
		return nil
	}
	// The terminal shows the frame at once, not line by line, where it
	// knows synchronized output; others ignore the mode.
	_, err := io.WriteString(s.out, ansi.SetModeSynchronizedOutput+s.buf.String()+ansi.ResetModeSynchronizedOutput)
	return err
}

// line writes line l at row y, from its first column, and clears the rest
// of the row when l is narrower than the terminal. A line wider than the
// terminal is cut, so that it never wraps onto the next.
func (s *Screen) line(y int, l string) {
	s.buf.WriteString(ansi.CursorPosition(1, y+1))
	w := draw.WidthOf(l)
	if w > s.w {
		l, w = ansi.Truncate(l, s.w, ""), s.w
	}
	s.styled(l)
	s.buf.WriteString(ansi.ResetStyle)
	if w < s.w {
		// Not at the last column: erasing there would take its cell.
		s.buf.WriteString(ansi.EraseLineRight)
	}
}

// styled writes l with its style sequences in the terminal's colours.
func (s *Screen) styled(l string) {
	if s.profile == colorprofile.TrueColor {
		s.buf.WriteString(l)
		return
	}
	for {
		i := strings.Index(l, "\x1b[")
		if i < 0 {
			s.buf.WriteString(l)
			return
		}
		s.buf.WriteString(l[:i])
		l = l[i:]
		end := strings.IndexFunc(l[2:], func(r rune) bool { return r >= 0x40 && r <= 0x7e })
		if end < 0 {
			s.buf.WriteString(s.convert(l))
			return
		}
		seq := l[:2+end+1]
		l = l[len(seq):]
		if seq[len(seq)-1] != 'm' {
			s.buf.WriteString(seq)
			continue
		}
		out, ok := s.sgr[seq]
		if !ok {
			out = s.convert(seq)
			if len(s.sgr) < 4096 {
				s.sgr[seq] = out
			}
		}
		s.buf.WriteString(out)
	}
}

func (s *Screen) convert(seq string) string {
	s.scratch.Reset()
	_, _ = s.colors.WriteString(seq)
	return s.scratch.String()
}
