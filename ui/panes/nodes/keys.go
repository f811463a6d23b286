package nodes

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/overlays/nodedialog"
	"rollscope/ui/screen"
)

// Key handles the node keys. In the Nodes pane (focused) space and x steer
// the selected node's group's roll and c, C, d and D open the node dialogs
// for the marked nodes or the selected one; n moves a roll on from any
// pane. It returns the dialog to open, if any, and what to send; ok is
// false for a key that is not a node key here, which then keeps its global
// meaning (space pauses the clock, x aborts the rollout).
func (p *Pane) Key(msg tea.KeyPressMsg, focused bool) (_ screen.Overlay, _ tea.Cmd, ok bool) {
	k := p.s.Keys
	roll, haveRoll := p.SelectedRoll()
	switch {
	// The Nodes pane's x must never fall through to the rollout abort
	// because stopping a roll is disabled: Bound matches disabled keys.
	case focused && k.Bound(action.StopRoll, msg):
		if !haveRoll || !roll.Active() {
			p.s.Toast = "no roll in progress in this node's group to stop — x aborts a rollout from the other panes"
			return nil, nil, true
		}
		if !k.Action(action.StopRoll).Enabled() {
			p.s.Toast = "stop the roll: " + k.DisabledReason(string(action.StopRoll))
			return nil, nil, true
		}
		ov, cmd := nodedialog.StopRoll(p.s, roll.Group)
		return ov, cmd, true
	case focused && k.Bound(action.PauseRoll, msg) && haveRoll && roll.Active():
		if !k.Action(action.PauseRoll).Enabled() {
			p.s.Toast = "pause the roll: " + k.DisabledReason(string(action.PauseRoll))
			return nil, nil, true
		}
		return nil, p.s.Send(action.Request{Action: action.PauseRoll, Name: roll.Group, ResumeRoll: roll.State == model.RollPaused}), true
	case key.Matches(msg, k.Action(action.NextStep)):
		group, why := p.rollToContinue(focused)
		if why != "" {
			p.s.Toast = why
			return nil, nil, true
		}
		req := action.Request{Action: action.NextStep, Name: group}
		summary := req.Summary()
		if g, _ := cluster.RollOf(p.s.Nodes, group); model.RollResumable(g.State) {
			summary = "resume the " + g.State + " roll of group " + group + " (the outdated nodes left, same settings)"
		}
		return nil, p.s.SendAs(req, summary), true
	case key.Matches(msg, k.Action(action.Cordon), k.Action(action.Uncordon), k.Action(action.Drain), k.Action(action.RollGroup)):
		if !focused {
			p.s.Toast = "node keys act on the Nodes pane's selection — press tab until Nodes is focused"
			return nil, nil, true
		}
		ov, cmd := p.open(msg)
		return ov, cmd, true
	}
	return nil, nil, false
}

// rollToContinue picks the roll n moves on: the selected node's group's in
// the Nodes pane, else the only roll in progress; or says why there is
// none.
func (p *Pane) rollToContinue(focused bool) (string, string) {
	if focused {
		if g, ok := p.SelectedRoll(); ok && (g.Active() || model.RollResumable(g.State)) {
			return g.Group, ""
		}
		return "", "no roll in this node's group — D starts one"
	}
	var active []string
	for _, g := range cluster.GroupRolls(p.s.Nodes) {
		if g.Active() || model.RollResumable(g.State) {
			active = append(active, g.Group)
		}
	}
	switch len(active) {
	case 0:
		return "", "no node-group roll in progress — D in the Nodes pane starts one"
	case 1:
		return active[0], ""
	}
	return "", "rolls of " + strings.Join(active, ", ") + " are in progress — pick a node of one in the Nodes pane, then n"
}

// open opens the dialog for c, C, d or D.
func (p *Pane) open(msg tea.KeyPressMsg) (screen.Overlay, tea.Cmd) {
	k := p.s.Keys
	if p.s.StillBusy() {
		return nil, nil
	}
	targets := p.Targets()
	if len(targets) == 0 {
		p.s.Toast = "no nodes to act on"
		return nil, nil
	}
	switch {
	case key.Matches(msg, k.Action(action.Cordon)):
		return nodedialog.Confirm(p.s, action.Cordon, targets)
	case key.Matches(msg, k.Action(action.Uncordon)):
		return nodedialog.Confirm(p.s, action.Uncordon, targets)
	case key.Matches(msg, k.Action(action.Drain)):
		return nodedialog.Drain(p.s, targets)
	}
	n, _ := p.Selected()
	if n.Group == "" {
		p.s.Toast = "node " + n.Name + " is in no node group (no " + model.NodeGroupLabel + " label) — nothing to roll"
		return nil, nil
	}
	if g, ok := cluster.RollOf(p.s.Nodes, n.Group); ok && g.Active() {
		p.s.Toast = "the roll of group " + n.Group + " is already " + g.State + " — n next node, space pause/resume, x stop"
		return nil, nil
	}
	size, outdated := nodedialog.GroupSize(p.s.Nodes, n.Group)
	if outdated == 0 {
		p.s.Toast = "every node of group " + n.Group + " is up to date — nothing to roll"
		return nil, nil
	}
	return nodedialog.Roll(p.s, n.Group, size, outdated)
}
