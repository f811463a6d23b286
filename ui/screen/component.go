package screen

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// Component is the contract every pane and overlay honours, so the root
// treats them alike: it hands them messages, sizes them, draws them and
// builds the footer from their keys. Only the root returns a tea.View.
//
// View returns at most the component's height in lines, each exactly its
// width in cells: the root joins them without measuring.
type Component[Self any] interface {
	Update(tea.Msg) (Self, tea.Cmd)
	View() string
	SetSize(w, h int)
	KeyMap() help.KeyMap
}

// Pane is one of the body's panes; the focused one gets the keys the root
// does not take.
type Pane interface{ Component[Pane] }

// Opener is a pane that can open something of its own over its rows (a
// revision's diff, a Timeline line whole). While it is open, esc is the
// pane's, to close it, before esc leaves the page.
type Opener interface{ Opened() bool }

// Opened reports whether p is an Opener with something open.
func Opened(p Pane) bool {
	o, ok := p.(Opener)
	return ok && o.Opened()
}

// Overlay is drawn over the panes and takes every key while open: the
// picker, help and the action dialogs. Its Update returns nil once it has
// closed.
type Overlay interface{ Component[Overlay] }

// Refreshed tells the panes the Screen was read again.
type Refreshed struct{}

// Focus tells a pane it gained (true) or lost (false) the focus.
type Focus bool
