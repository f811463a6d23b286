package screen

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
)

// Page is one of the console's screens: the fleet, a Deployment's rollout,
// a ReplicationController's rolling update, a StatefulSet's or DaemonSet's
// view. The root keeps a stack of them and treats the one on top alike:
// it draws the watch banner, then the page's header and body, then the
// footer built from the page's keys; it hands the page every key the open
// overlay does not take, sizes every page in the stack to the body, and
// reads them all again with every refresh. It never asks which page it
// holds.
//
// Update returns nil once the page has closed (esc): the console then goes
// back — to the home page (the fleet) when there is one, else to the page
// under it. A page asks the root for the rest through the Screen: Go (show
// another target), Show (open an overlay over it) and Global (a key that is
// the console's own, handed back at the point of the page's choosing).
type Page interface {
	Component[Page]
	// Read reads the page's views again from the source; the root calls
	// it after the Screen's Read, in Update only.
	Read()
	// Header is the page's lines between the watch banner and the body;
	// clock is the embedded clock's reading, which ends the first line
	// ("" with a live cluster). HeaderHeight is its height at width w,
	// without drawing it: long sentences take a second line.
	Header(w int, clock string) []string
	HeaderHeight(w int) int
	// Title is the terminal window's title while the page is shown.
	Title() string
	// Typing reports whether the page takes every key as text (a filter,
	// a prompt): the quit key is then text too.
	Typing() bool
	// Writes reports whether a question that ends in a write is open on
	// the page: the embedded clock is held meanwhile.
	Writes() bool
}

// Home is the page the console starts on and goes back to: the fleet. It
// shows the scope, which the scope keys (0, :ns, :ctx) change.
type Home interface {
	Page
	// Namespace is the scope shown, "" for every namespace; SetNamespace
	// shows another.
	Namespace() string
	SetNamespace(namespace string)
	// SelectedNamespace is the namespace of the row under the cursor.
	SelectedNamespace() (string, bool)
}

// Act asks the rollout page to open the dialog of an action on the
// Deployment it shows (a Deployment's row in the fleet opens the same
// dialogs the rollout view opens).
type Act action.Name

// Show asks the root to open ov over the page once the page's Update is
// done, and to run cmd; a nil ov (sent at once, or refused with the reason
// in the footer) leaves the page as it is.
func (s *Screen) Show(ov Overlay, cmd tea.Cmd) { s.show = &Open{Overlay: ov, Cmd: cmd} }

// Shown takes what a page asked to open, if it did.
func (s *Screen) Shown() (Open, bool) {
	o := s.show
	s.show = nil
	if o == nil {
		return Open{}, false
	}
	return *o, true
}

// Global reports whether msg is one of the console's own keys — help, the
// command line, the fleet, the scope, the clock — and, when it is, leaves
// it for the root to handle once the page's Update is done. A page calls
// it where those keys rank among its own.
func (s *Screen) Global(msg tea.KeyPressMsg) bool {
	if s.IsGlobal == nil || !s.IsGlobal(msg) {
		return false
	}
	s.global = &msg
	return true
}

// TakeGlobal takes the key a page left for the root, if it did.
func (s *Screen) TakeGlobal() (tea.KeyPressMsg, bool) {
	g := s.global
	s.global = nil
	if g == nil {
		return tea.KeyPressMsg{}, false
	}
	return *g, true
}

// SayDisabled puts in the footer why msg's key does nothing here when it
// is an action key disabled now, and says whether it was.
func (s *Screen) SayDisabled(msg tea.KeyPressMsg) bool {
	desc, reason, ok := s.Keys.DisabledFor(msg)
	if ok {
		s.Toast = desc + ": " + reason
	}
	return ok
}

// Body is a view drawn in place of another page's body: the RC view and
// the StatefulSet / DaemonSet view. Its Update returns its zero value once
// esc has closed it.
type Body[V any] interface {
	Component[V]
	Read()
	// Takes reports whether a key is the view's own; the others keep the
	// meaning they have on the page under it.
	Takes(tea.KeyPressMsg) bool
	Typing() bool
	Writes() bool
	// Object is what the view shows as kubectl names it (statefulset/db,
	// rc/web), and Namespace where it is: the page's header names them,
	// not the Deployment under it nor the console's scope (a row opened
	// from the fleet of every namespace is in its own).
	Object() string
	Namespace() string
}

// Placer is a page that says where the console is — the context, the
// namespace, read-only — in a header line that can name another object: the
// pages over it name theirs with it.
type Placer interface {
	Where(namespace, object string, w int, clock string) string
}

// Over is the page of a Body shown over base, the rollout page: the header
// names the body's own object where base places it, the footer offers the
// body's keys (which end with the console's own), and base keeps the title
// and every key the body does not take. The root reads and sizes base
// itself, as it is in the stack under this page.
type Over[V interface {
	comparable
	Body[V]
}] struct {
	base Page
	body V
}

// NewOver is body's page over base.
func NewOver[V interface {
	comparable
	Body[V]
}](base Page, body V) *Over[V] {
	return &Over[V]{base: base, body: body}
}

// Body is the view the page shows.
func (o *Over[V]) Body() V { return o.body }

// Moves reports whether the Move keys move anything on the page: the
// body's answer when it gives one (the help lists them only then).
func (o *Over[V]) Moves() bool {
	if b, ok := any(o.body).(interface{ Moves() bool }); ok {
		return b.Moves()
	}
	return true
}

// Refused is why the body's state refuses the action named name now: the
// body's answer when it gives one, else "" (the help greys such a key with
// the reason, as it does a key disabled for the whole console).
func (o *Over[V]) Refused(name string) string {
	if b, ok := any(o.body).(interface{ Refused(string) string }); ok {
		return b.Refused(name)
	}
	return ""
}

// Update gives keys to the body when it takes them and to base otherwise,
// the mouse wheel to base (its focused pane), and the answers the body's
// questions wait for to the body. A request's result (Sent) is base's,
// which the root hands it directly.
func (o *Over[V]) Update(msg tea.Msg) (Page, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !o.body.Takes(msg) {
			return o.toBase(msg)
		}
	case tea.MouseWheelMsg:
		return o.toBase(msg)
	case Sent:
		return o, nil
	}
	var zero V
	if o.body, cmd = o.body.Update(msg); o.body == zero {
		return nil, cmd
	}
	return o, cmd
}

func (o *Over[V]) toBase(msg tea.Msg) (Page, tea.Cmd) {
	next, cmd := o.base.Update(msg)
	if next == nil {
		return nil, cmd
	}
	o.base = next
	return o, cmd
}

// PodsRead is the body's namespace: a workload's page reads its own pods.
func (o *Over[V]) PodsRead() (string, bool) { return o.body.Namespace(), false }

func (o *Over[V]) View() string        { return o.body.View() }
func (o *Over[V]) SetSize(w, h int)    { o.body.SetSize(w, h) }
func (o *Over[V]) KeyMap() help.KeyMap { return o.body.KeyMap() }
func (o *Over[V]) Read()               { o.body.Read() }

// Header is one line naming the body's object where base says the console
// is; base's own header (its Deployment's) when base cannot place it.
func (o *Over[V]) Header(w int, clock string) []string {
	if p, ok := o.base.(Placer); ok {
		return []string{p.Where(o.body.Namespace(), o.body.Object(), w, clock)}
	}
	return o.base.Header(w, clock)
}

func (o *Over[V]) HeaderHeight(w int) int {
	if _, ok := o.base.(Placer); ok {
		return 1
	}
	return o.base.HeaderHeight(w)
}
func (o *Over[V]) Title() string { return o.base.Title() }
func (o *Over[V]) Typing() bool  { return o.body.Typing() }
func (o *Over[V]) Writes() bool  { return o.body.Writes() }
