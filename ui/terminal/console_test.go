package terminal

import (
	"bytes"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// panicky is a model whose View panics.
type panicky struct{}

func (panicky) Init() tea.Cmd                       { return nil }
func (panicky) Update(tea.Msg) (tea.Model, tea.Cmd) { return panicky{}, nil }
func (panicky) View() tea.View                      { panic("a bug in the view") }

// A panic in the model leaves the alternate screen before Bubble Tea prints
// it, so the operator reads the message on their own screen; the console's
// own Close afterwards writes nothing more.
func TestAPanicLeavesTheScreenBeforeItIsPrinted(t *testing.T) {
	var out bytes.Buffer
	c := &Console{Screen: NewScreen(&out, colorprofile.TrueColor, 20, 5)}
	m := c.Model(panicky{})
	func() {
		defer func() {
			if r := recover(); r != "a bug in the view" {
				t.Fatalf("the panic went on as %v, want the model's own", r)
			}
		}()
		m.View()
	}()
	if !strings.HasSuffix(out.String(), closing) {
		t.Fatalf("the screen was not left before the panic went on: %q", out.String())
	}
	n := out.Len()
	c.Close()
	if out.Len() != n {
		t.Fatalf("Close after the panic wrote %q again", out.String()[n:])
	}
}

// sizeOf is a model whose frame is as wide as the last size it was told,
// 80 columns before any.
type sizeOf struct{ w int }

func (sizeOf) Init() tea.Cmd { return nil }
func (m sizeOf) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(tea.WindowSizeMsg); ok {
		m.w = s.Width
	}
	return m, nil
}
func (m sizeOf) View() tea.View {
	w := m.w
	if w == 0 {
		w = 80
	}
	return tea.NewView(strings.Repeat("x", w))
}

// Bubble Tea asks for a view before the terminal's size reaches the model;
// that frame, drawn at the model's default width, would show an operator on
// a 40-column terminal a header cut where its last columns should be. The
// console draws nothing until the size has arrived, then the frame at it.
func TestNothingIsDrawnBeforeTheModelKnowsTheSize(t *testing.T) {
	var out bytes.Buffer
	c := &Console{Screen: NewScreen(&out, colorprofile.TrueColor, 40, 5)}
	var m tea.Model = c.Model(sizeOf{})
	m.View()
	if strings.Contains(out.String(), "x") {
		t.Fatalf("a frame was drawn before the model knew the terminal's size: %q", out.String())
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 40, Height: 5})
	m.View()
	if got := strings.Count(out.String(), "x"); got != 40 {
		t.Fatalf("the first frame after the size drew %d cells of its line, want 40: %q", got, out.String())
	}
}
