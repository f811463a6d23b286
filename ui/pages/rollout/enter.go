package rollout

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// enter is enter on a pane whose rows lead to another pane: a ReplicaSet
// leads to its pods (the Pods pane already shows the selected one). It
// reports whether it took the key.
func (p *Page) enter(msg tea.KeyPressMsg) bool {
	if !key.Matches(msg, p.s.Keys.Select) {
		return false
	}
	if p.focus == focusReplicaSets {
		p.setFocus(focusPods)
		return true
	}
	return false
}
