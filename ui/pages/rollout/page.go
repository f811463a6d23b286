// Package rollout is the Deployment's rollout page: the header (where we
// are, the strategy, the conditions, kubectl's status sentence, the canary
// and the blocker lines, the headroom bars) over the five panes —
// ReplicaSets with their pod glyphs, Pods, Nodes, History and Timeline — in
// a grid that fits the terminal, with the focus moving between them in tab
// order. Its keys are the panes', the node keys, and the Deployment's
// actions, whose dialogs it opens over itself.
package rollout

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/overlays/canarydialog"
	"rollscope/ui/overlays/picker"
	"rollscope/ui/overlays/rolloutdialog"
	"rollscope/ui/panes/history"
	"rollscope/ui/panes/nodes"
	"rollscope/ui/panes/pods"
	"rollscope/ui/panes/replicasets"
	"rollscope/ui/panes/timeline"
	"rollscope/ui/screen"
)

// Page is the rollout page of the Deployment the Screen shows.
type Page struct {
	s    *screen.Screen
	w, h int
	// context is the kubeconfig context the header names.
	context string
	// back is set when esc goes back to a page under this one (the
	// fleet); without one esc is the focused pane's.
	back  bool
	panes [paneCount]screen.Pane
	// nodes and history are two of panes, for what only they answer: the
	// node keys, and the History pane's diff.
	nodes   *nodes.Pane
	history *history.Pane
	focus   focus
	memo    *draw.Memo
}

var _ screen.Page = (*Page)(nil)

// New is the rollout page over s, the ReplicaSets pane focused. back says
// whether esc goes back to the home page.
func New(s *screen.Screen, context string, back bool) *Page {
	p := &Page{s: s, context: context, back: back, nodes: nodes.New(s), history: history.New(s), memo: &draw.Memo{}}
	p.panes = [paneCount]screen.Pane{
		focusReplicaSets: replicasets.New(s),
		focusPods:        pods.New(s),
		focusNodes:       p.nodes,
		focusHistory:     p.history,
		focusTimeline:    timeline.New(s),
	}
	p.panes[p.focus], _ = p.panes[p.focus].Update(screen.Focus(true))
	return p
}

// Show points the page at another Deployment: the selections start over
// and the History pane leaves any diff of the last one.
func (p *Page) Show(namespace, name string) {
	p.s.Namespace, p.s.Deployment, p.s.SelectedRS, p.s.SelectedRevision = namespace, name, "", 0
	p.history.CloseDiff()
}

// Dialog is the dialog of rollout action kind on the Deployment shown (the
// canary dialog for a canary's actions).
func Dialog(s *screen.Screen, kind action.Name) (screen.Overlay, tea.Cmd) {
	if spec, _ := action.Lookup(kind); spec.Canary {
		return canarydialog.Open(s, kind)
	}
	return rolloutdialog.Open(s, kind)
}

// Read tells every pane the Screen was read again.
func (p *Page) Read() {
	for i := range p.panes {
		p.panes[i], _ = p.panes[i].Update(screen.Refreshed{})
	}
}

// Update handles the page's keys, the mouse wheel (the focused pane's),
// a request's result (the Nodes pane follows its roll) and the fleet's
// request for an action's dialog.
func (p *Page) Update(msg tea.Msg) (screen.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return p.key(msg)
	case tea.MouseWheelMsg:
		return p, p.toFocused(msg)
	case screen.Sent:
		p.nodes.Update(msg)
	case screen.Act:
		p.s.Show(Dialog(p.s, action.Name(msg)))
	}
	return p, nil
}

func (p *Page) key(msg tea.KeyPressMsg) (screen.Page, tea.Cmd) {
	k := p.s.Keys
	// On a pod's glyph in the ReplicaSets pane, enter and esc are the glyph
	// cursor's (the pod's detail, back to the row) before any key enter
	// has on a ReplicaSet's row.
	if p.focus == focusReplicaSets && p.s.Glyph != "" && (key.Matches(msg, k.Select) || key.Matches(msg, k.Back)) {
		return p, p.toFocused(msg)
	}
	// The node keys come first: in the Nodes pane space and x steer a
	// roll instead of the clock and the rollout. Elsewhere only a node or
	// node-group action's key is the pane's (it says why it needs focus).
	if p.focus == focusNodes || p.nodeKey(msg) {
		if ov, cmd, ok := p.nodes.Key(msg, p.focus == focusNodes); ok {
			p.s.Show(ov, cmd)
			return p, nil
		}
	}
	if p.s.Global(msg) {
		return p, nil
	}
	switch {
	case key.Matches(msg, k.NextPane):
		p.setFocus((p.focus + 1) % paneCount)
	case key.Matches(msg, k.PrevPane):
		p.setFocus((p.focus + paneCount - 1) % paneCount)
	case key.Matches(msg, k.Back) && p.back && !screen.Opened(p.panes[p.focus]):
		// esc from a rollout goes back to the fleet, once the focused
		// pane has nothing open for it to close.
		return nil, nil
	case key.Matches(msg, k.Filter):
		p.s.Show(picker.New(p.s, '/'), nil)
	default:
		if kind, ok := k.Pressed(msg, action.OnDeployment); ok {
			p.s.Show(Dialog(p.s, kind))
			return p, nil
		}
		if p.s.SayDisabled(msg) || p.enter(msg) {
			return p, nil
		}
		return p, p.toFocused(msg)
	}
	return p, nil
}

// nodeKey reports whether msg is the enabled key of an action on nodes or
// node groups.
func (p *Page) nodeKey(msg tea.KeyPressMsg) bool {
	_, node := p.s.Keys.Pressed(msg, action.OnNode)
	_, group := p.s.Keys.Pressed(msg, action.OnNodeGroup)
	return node || group
}

func (p *Page) toFocused(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.panes[p.focus], cmd = p.panes[p.focus].Update(msg)
	// Moving in the ReplicaSets pane changes which pods the pods pane
	// shows.
	if p.focus == focusReplicaSets {
		p.panes[focusPods], _ = p.panes[focusPods].Update(screen.Refreshed{})
	}
	return cmd
}

func (p *Page) setFocus(f focus) {
	p.panes[p.focus], _ = p.panes[p.focus].Update(screen.Focus(false))
	p.focus = f
	p.panes[p.focus], _ = p.panes[p.focus].Update(screen.Focus(true))
	p.layout()
}

// KeyMap is the focused pane's keys and the global ones.
func (p *Page) KeyMap() help.KeyMap {
	return keys.Pane(append(p.panes[p.focus].KeyMap().ShortHelp(), p.s.Keys.ShortHelp()...))
}

// Title names the Deployment shown.
func (p *Page) Title() string { return "rollscope " + p.s.Namespace + "/" + p.s.Deployment }

// PodsRead is the Deployment's namespace, and every pod while the Nodes
// pane, which counts each node's pods, is focused.
func (p *Page) PodsRead() (string, bool) { return p.s.Namespace, p.focus == focusNodes }

// Typing is false: the page's keys are never text.
func (p *Page) Typing() bool { return false }

// Writes is false: the page's questions are overlays, which the root asks.
func (p *Page) Writes() bool { return false }
