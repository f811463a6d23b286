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
