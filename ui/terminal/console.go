package terminal

import (
	"errors"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
)

// Console is the terminal while the console runs on it: keys read raw, the
// alternate screen, frames drawn by its Screen. Bubble Tea reads the keys
// and runs the model; it draws nothing itself (Options).
type Console struct {
	in, out *os.File
	tty     *os.File // opened when stdin is not the terminal
	raw     *term.State
	profile colorprofile.Profile
	w, h    int
	Screen  *Screen
	closed  bool // given back: Close, or a panic in the model
	// sized is set once the model has been told the terminal's size.
	// Bubble Tea sends the first size on its own goroutine and asks for
	// a view before it arrives: the model would draw that first frame at
	// its default 80×24, cut or wrapped on any other terminal.
	sized bool
}

// Open takes the terminal out is on: keys from stdin (or the terminal itself
// when stdin is redirected), read raw; the alternate screen on out.
func Open(out *os.File) (*Console, error) {
	c := &Console{in: os.Stdin, out: out}
	if !term.IsTerminal(out.Fd()) {
		return nil, errors.New("the console needs a terminal on stdout (--plain prints status lines instead)")
	}
	if !term.IsTerminal(c.in.Fd()) {
		tty, err := os.Open("/dev/tty")
		if err != nil {
			return nil, errors.New("the console reads keys from a terminal, and stdin is not one: " + err.Error())
		}
		c.in, c.tty = tty, tty
	}
	var err error
	if c.w, c.h, err = term.GetSize(out.Fd()); err != nil {
		c.close()
		return nil, errors.New("cannot read the terminal's size: " + err.Error())
	}
	if c.raw, err = term.MakeRaw(c.in.Fd()); err != nil {
		c.close()
		return nil, errors.New("cannot read keys from the terminal: " + err.Error())
	}
	c.profile = colorprofile.Detect(out, os.Environ())
	c.Screen = NewScreen(out, c.profile, c.w, c.h)
	if err := c.Screen.Open(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Close gives the terminal back as it was before Open.
func (c *Console) Close() {
	if c.closed {
		return
	}
	c.closed = true
	_ = c.Screen.Close()
	c.close()
}

func (c *Console) close() {
	if c.raw != nil {
		_ = term.Restore(c.in.Fd(), c.raw)
	}
	if c.tty != nil {
		_ = c.tty.Close()
	}
}

// Options run a Bubble Tea program on the console: its keys from the
// terminal, its first size, no renderer of its own, and the renderer's
// ticker (60 wake-ups a second by default, to look for a frame to draw)
// slowed to one, since Model draws each frame when it is made.
func (c *Console) Options() []tea.ProgramOption {
	return []tea.ProgramOption{tea.WithoutRenderer(), tea.WithInput(c.in), tea.WithWindowSize(c.w, c.h),
		tea.WithColorProfile(c.profile), tea.WithFPS(1)}
}

// Model is m drawing every frame it views on the console.
func (c *Console) Model(m tea.Model) tea.Model { return drawn{Model: m, c: c} }

// Unwrap is the model Model wrapped.
func Unwrap(m tea.Model) tea.Model {
	if d, ok := m.(drawn); ok {
		return d.Model
	}
	return m
}

type drawn struct {
	tea.Model
	c *Console
}

func (d drawn) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer d.c.leaveOnPanic()
	if s, ok := msg.(tea.WindowSizeMsg); ok {
		d.c.Screen.Resize(s.Width, s.Height)
		d.c.sized = true
	}
	m, cmd := d.Model.Update(msg)
	return drawn{Model: m, c: d.c}, cmd
}

// View draws the frame: Bubble Tea asks for it after every message, in its
// event loop, so frames reach the terminal in order and at once. Nothing is
// drawn before the model knows the terminal's size.
func (d drawn) View() tea.View {
	defer d.c.leaveOnPanic()
	v := d.Model.View()
	if d.c.sized {
		_ = d.c.Screen.Draw(v.Content, v.WindowTitle)
	}
	return v
}

// leaveOnPanic gives the terminal back before a panic in the model goes on
// to Bubble Tea, which prints it: printed on the alternate screen, the
// message would vanish when the console closes.
func (c *Console) leaveOnPanic() {
	if r := recover(); r != nil {
		c.Close()
		panic(r)
	}
}
