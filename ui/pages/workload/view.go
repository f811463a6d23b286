// Package workload is the StatefulSet, DaemonSet and Argo Rollout page
// (`:sts NAME`, `:ds NAME`, `rollscope statefulset/NAME`, `rollscope
// ro/NAME`), drawn in
// place of the rollout page's panes like the RC page: for a StatefulSet the ordinals as a
// strip (updated, current, not ready; the partition marked), for a DaemonSet
// the nodes (updated, old, surging, unavailable), for a Rollout its strategy
// and step, pause, images, steps, analysis and ReplicaSets (argo.go), the
// kind's headroom bars, `kubectl rollout status`'s sentence, and the history
// (from ControllerRevisions, a Rollout's from its ReplicaSets) with the
// template diff of the revision under the cursor. Its keys are the kind's
// actions in the key map (sts-…, ds-…, ro-…), a Rollout's offered only in
// the states where they can work (Refused); esc goes back to the deployment.
package workload

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// Source is what the view reads; cluster.Cluster (and so cluster.Cluster)
// answers it.
type Source interface {
	StatefulSet(namespace, name string, now time.Time) (cluster.StatefulSetView, bool)
	DaemonSet(namespace, name string, now time.Time) (cluster.DaemonSetView, bool)
}

// Kind is the object the view shows.
type Kind = action.Object

// View is the open view.
type View struct {
	s               *screen.Screen
	w, h            int
	kind            Kind
	namespace, name string

	sts    cluster.StatefulSetView
	ds     cluster.DaemonSetView
	ro     cluster.ArgoRolloutView
	found  bool
	cursor int // the revision under the cursor, an index into the history
	// prompt is the question being answered (a text field, then y/n),
	// nil when none.
	prompt *prompt
}

var _ screen.Body[*View] = (*View)(nil)

// NewPage is the page of the StatefulSet or DaemonSet name in namespace,
// over base (the rollout page).
func NewPage(s *screen.Screen, base screen.Page, kind Kind, namespace, name string) screen.Page {
	return screen.NewOver(base, New(s, kind, namespace, name))
}

// New opens the view of the StatefulSet or DaemonSet name in namespace.
func New(s *screen.Screen, kind Kind, namespace, name string) *View {
	v := &View{s: s, kind: kind, namespace: namespace, name: name, cursor: -1}
	v.Read()
	return v
}

// Read reads the view again from the source; the root calls it with every
// refresh.
func (v *View) Read() {
	src, ok := v.s.Src.(Source)
	switch {
	case v.kind == kind.Rollout:
		v.readArgo()
	case !ok:
		v.found = false
		return
	case v.kind == action.OnStatefulSet:
		v.sts, v.found = src.StatefulSet(v.namespace, v.name, v.s.Now)
	default:
		v.ds, v.found = src.DaemonSet(v.namespace, v.name, v.s.Now)
	}
	if n := len(v.history()); v.cursor < 0 || v.cursor >= n {
		// The cursor starts on the revision before the current one: the
		// one an undo goes back to.
		v.cursor = max(n-2, 0)
	}
}

func (v *View) history() []cluster.WorkloadRevision {
	switch v.kind {
	case action.OnStatefulSet:
		return v.sts.History
	case kind.Rollout:
		return v.ro.History
	}
	return v.ds.History
}

// Object is kubectl's name of what the view shows.
func (v *View) Object() string { return string(v.kind) + "/" + v.name }

// Namespace is where the workload is, for the page's header.
func (v *View) Namespace() string { return v.namespace }

// SetSize sizes the view to the body.
func (v *View) SetSize(w, h int) { v.w, v.h = w, h }

// actions are the view's action names, in help order.
func (v *View) actions() []action.Name { return action.Of(v.kind) }

// KeyMap is the view's own keys.
func (v *View) KeyMap() help.KeyMap {
	if v.prompt != nil {
		return v.prompt.frame.KeyMap(v.prompt.keyMap())
	}
	k := v.s.Keys
	out := keys.Pane{k.Up, k.Down}
	for _, n := range v.actions() {
		b := k.Action(n)
		if v.Refused(string(n)) != "" {
			// A copy: the key map is the console's, its state the
			// Rollout's.
			b.SetEnabled(false)
		}
		out = append(out, b)
	}
	return append(out, k.Back, k.Help, k.Command, k.Quit)
}

// Refused says why the Rollout's state refuses the action named name now
// ("" when it does not): the footer leaves its key out, the help greys it
// with the reason, and pressing it says the reason. RBAC and --read-only
// disable keys in the key map itself, before this.
func (v *View) Refused(name string) string {
	if v.kind != kind.Rollout || !v.found {
		return ""
	}
	s, ok := action.Lookup(action.Name(name))
	if !ok || s.On != v.kind {
		return ""
	}
	return v.ro.Refused[s.Verb]
}

// Typing reports whether the prompt takes every key, text included.
func (v *View) Typing() bool { return v.prompt != nil }

// Takes reports whether msg is the view's to handle: every key while a
// prompt is open, else esc, the cursor keys and the kind's action keys —
// enabled or not, so that a disabled key says why rather than falling
// through to the deployment's.
func (v *View) Takes(msg tea.KeyPressMsg) bool {
	k := v.s.Keys
	if v.prompt != nil || key.Matches(msg, k.Back, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom) {
		return true
	}
	for _, n := range v.actions() {
		if k.Bound(n, msg) {
			return true
		}
	}
	return false
}

// Update handles the view's keys; it returns nil once esc has closed it.
// A prompt closed or replaced stops its forecast.
func (v *View) Update(msg tea.Msg) (*View, tea.Cmd) {
	p := v.prompt
	next, cmd := v.update(msg)
	if p != nil && (next == nil || next.prompt != p) {
		p.forecasting.Stop()
	}
	return next, cmd
}

func (v *View) update(msg tea.Msg) (*View, tea.Cmd) {
	if f, ok := msg.(Forecasted); ok {
		v.forecasted(f)
		return v, nil
	}
	if a, ok := msg.(screen.Act); ok {
		// Pressed on the workload's fleet row.
		return v, v.start(action.Name(a))
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil
	}
	if v.prompt != nil {
		return v.answer(k)
	}
	km := v.s.Keys
	switch {
	case key.Matches(k, km.Back):
		return nil, nil
	case key.Matches(k, km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom):
		// Every key the help lists under Move moves the history cursor.
		last := max(len(v.history())-1, 0)
		switch {
		case key.Matches(k, km.Up):
			v.cursor--
		case key.Matches(k, km.Down):
			v.cursor++
		case key.Matches(k, km.PageUp), key.Matches(k, km.Top):
			v.cursor = 0
		default:
			v.cursor = last
		}
		v.cursor = min(max(v.cursor, 0), last)
		return v, nil
	}
	for _, n := range v.actions() {
		if km.Bound(n, k) {
			return v, v.start(n)
		}
	}
	return v, nil
}

// Writes reports whether a question that ends in a write is open: the root
// holds the embedded clock meanwhile, as for every dialog that writes.
func (v *View) Writes() bool { return v.prompt != nil }
