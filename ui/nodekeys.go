package ui

import (
	"context"
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
)

// nodePreviewMsg brings the drain dialog its previews.
type nodePreviewMsg struct {
	nodes    []string
	opts     action.DrainOptions
	previews map[string]action.DrainPreview
	err      error
}

// nodeDoneMsg is the result of one sent node request.
type nodeDoneMsg struct {
	summary string
	req     action.Request
	result  string
	err     error
}

// nodeKey handles the node keys; ok is false for a key that is not one,
// which then keeps its global meaning.
func (m Model) nodeKey(msg tea.KeyPressMsg) (_ tea.Model, _ tea.Cmd, ok bool) {
	k := m.keys
	np, _ := m.panes[focusNodes].(*nodesPane)
	inNodes := m.focus == focusNodes && np != nil
	roll, haveRoll := model.GroupRoll{}, false
	if np != nil {
		roll, haveRoll = np.selectedRoll()
	}
	switch {
	// The Nodes pane's x must never fall through to the rollout abort
	// because stopping a roll is disabled: Bound matches disabled keys.
	case inNodes && k.Bound(action.StopRoll, msg):
		if !haveRoll || !roll.Active() {
			m.toast = "no roll in progress in this node's group to stop — x aborts a rollout from the other panes"
			return m, nil, true
		}
		if !k.Action(action.StopRoll).Enabled() {
			m.toast = "stop the roll: " + k.DisabledReason("stop-roll")
			return m, nil, true
		}
		d := &nodeDialog{kind: nodeStopRoll, group: roll.Group, confirming: true}
		mm, cmd := m.openNodeDialog(d)
		return mm, cmd, true
	case inNodes && k.Bound(action.PauseRoll, msg) && haveRoll && roll.Active():
		if !k.Action(action.PauseRoll).Enabled() {
			m.toast = "pause the roll: " + k.DisabledReason("pause-roll")
			return m, nil, true
		}
		req := action.Request{Action: action.PauseRoll, Name: roll.Group, ResumeRoll: roll.State == model.RollPaused}
		mm, cmd := m.steer(req, req.Summary())
		return mm, cmd, true
	case key.Matches(msg, k.Action(action.NextStep)):
		group, why := m.rollToContinue(np, inNodes)
		if why != "" {
			m.toast = why
			return m, nil, true
		}
		req := action.Request{Action: action.NextStep, Name: group}
		summary := req.Summary()
		if g, _ := model.RollOf(m.s.nodes, group); resumable(g) {
			summary = "resume the " + g.State + " roll of group " + group + " (the outdated nodes left, same settings)"
		}
		mm, cmd := m.steer(req, summary)
		return mm, cmd, true
	case key.Matches(msg, k.Action(action.Cordon), k.Action(action.Uncordon), k.Action(action.Drain), k.Action(action.RollGroup)):
		if !inNodes {
			m.toast = "node keys act on the Nodes pane's selection — press tab until Nodes is focused"
			return m, nil, true
		}
		mm, cmd := m.startNodeAction(np, msg)
		return mm, cmd, true
	}
	return m, nil, false
}

// rollToContinue picks the roll n moves on: the selected node's group's in
// the Nodes pane, else the only roll in progress.
func (m *Model) rollToContinue(np *nodesPane, inNodes bool) (string, string) {
	if inNodes {
		if g, ok := np.selectedRoll(); ok && (g.Active() || resumable(g)) {
			return g.Group, ""
		}
		return "", "no roll in this node's group — D starts one"
	}
	var active []string
	for _, g := range model.GroupRolls(m.s.nodes) {
		if g.Active() || resumable(g) {
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

// resumable reports whether n starts an ended roll again: a stopped or
// failed one, whose outdated nodes are left.
func resumable(g model.GroupRoll) bool { return g.State == "stopped" || g.State == "failed" }

// startNodeAction opens the dialog for c, C, d or D.
func (m Model) startNodeAction(np *nodesPane, msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.busy != "" {
		m.toast = "still waiting for " + m.busy + " — one action at a time"
		return m, nil
	}
	targets := np.targets()
	if len(targets) == 0 {
		m.toast = "no nodes to act on"
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Action(action.Cordon)):
		return m.openNodeDialog(&nodeDialog{kind: nodeCordon, nodes: targets, confirming: true})
	case key.Matches(msg, k.Action(action.Uncordon)):
		return m.openNodeDialog(&nodeDialog{kind: nodeUncordon, nodes: targets, confirming: true})
	case key.Matches(msg, k.Action(action.Drain)):
		d := newDrainDialog(targets)
		m.dialog = &dialog{node: d}
		return m, m.previewDrain(d)
	}
	n, _ := np.selected()
	if n.Group == "" {
		m.toast = "node " + n.Name + " is in no node group (no " + model.NodeGroupLabel + " label) — nothing to roll"
		return m, nil
	}
	if g, ok := model.RollOf(m.s.nodes, n.Group); ok && g.Active() {
		m.toast = "the roll of group " + n.Group + " is already " + g.State + " — n next node, space pause/resume, x stop"
		return m, nil
	}
	size, outdated := 0, 0
	for _, row := range m.s.nodes {
		if row.Group == n.Group {
			size++
			if !row.UpToDate {
				outdated++
			}
		}
	}
	if outdated == 0 {
		m.toast = "every node of group " + n.Group + " is up to date — nothing to roll"
		return m, nil
	}
	m.dialog = &dialog{node: newRollDialog(n.Group, size, outdated, m.rollDefaults)}
	return m, nil
}

// openNodeDialog shows a node dialog; one that starts at its confirmation
// is sent at once with --yes.
func (m Model) openNodeDialog(d *nodeDialog) (tea.Model, tea.Cmd) {
	m.dialog = &dialog{node: d}
	if d.confirming && m.assumeYes {
		return m.sendNode()
	}
	return m, nil
}

// previewDrain asks what draining the dialog's nodes with its options
// would do.
func (m Model) previewDrain(d *nodeDialog) tea.Cmd {
	o, problem := d.drainOptions()
	if problem != "" {
		return nil
	}
	d.previewFor, d.previewed = o, false
	acts, nodes := m.actions, slices.Clone(d.nodes)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
		defer cancel()
		out := map[string]action.DrainPreview{}
		for _, n := range nodes {
			p, err := acts.PreviewDrain(ctx, n, o)
			if err != nil {
				return nodePreviewMsg{nodes: nodes, opts: o, err: err}
			}
			out[n] = p
		}
		return nodePreviewMsg{nodes: nodes, opts: o, previews: out}
	}
}

// previewedDrain shows the previews, if the dialog is still open on the
// same options.
func (m Model) previewedDrain(msg nodePreviewMsg) (tea.Model, tea.Cmd) {
	if m.dialog == nil || m.dialog.node == nil {
		return m, nil
	}
	d := m.dialog.node
	if d.kind != nodeDrain || !slices.Equal(d.nodes, msg.nodes) || !sameDrainOptions(d.previewFor, msg.opts) {
		return m, nil
	}
	d.previews, d.previewErr, d.previewed = msg.previews, "", true
	if msg.err != nil {
		d.previewErr = msg.err.Error()
	}
	return m, nil
}

func sameDrainOptions(a, b action.DrainOptions) bool {
	ga, gb := a.GracePeriodSeconds, b.GracePeriodSeconds
	a.GracePeriodSeconds, b.GracePeriodSeconds = nil, nil
	return a == b && (ga == nil) == (gb == nil) && (ga == nil || *ga == *gb)
}

// goneNodes are the dialog's nodes no longer in the cluster: deleted or
// replaced while the dialog was open.
func goneNodes(s *screen, d *nodeDialog) []string {
	var gone []string
	for _, name := range d.nodes {
		if !slices.ContainsFunc(s.nodes, func(n model.NodeRow) bool { return n.Name == name }) {
			gone = append(gone, name)
		}
	}
	return gone
}

// nodeDialogKey routes a key to the open node dialog and acts on what it
// decided.
func (m Model) nodeDialogKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	d := m.dialog.node
	before := fieldStates(d)
	switch d.key(msg, m.keys) {
	case dialogCancel:
		m.dialog = nil
		return m, nil
	case dialogSend:
		return m.sendNode()
	case dialogNext:
		if !m.acceptNode(d) {
			return m, nil
		}
		d.confirming = true
		if m.assumeYes {
			return m.sendNode()
		}
		return m, nil
	}
	// A changed drain option changes what the drain would do.
	if d.kind == nodeDrain && fieldStates(d) != before {
		return m, m.previewDrain(d)
	}
	return m, nil
}

// fieldStates is the form's content, to notice a change.
func fieldStates(d *nodeDialog) string {
	var b strings.Builder
	for _, f := range d.fields {
		if f.on {
			b.WriteString("1")
		} else {
			b.WriteString("0")
		}
		b.WriteString(f.text + "\x00")
	}
	return b.String()
}

// acceptNode checks the form and works out the plan the confirmation
// shows; it returns false with the reason in d.problem.
func (m *Model) acceptNode(d *nodeDialog) bool {
	switch d.kind {
	case nodeDrain:
		o, problem := d.drainOptions()
		if problem != "" {
			d.problem = problem
			return false
		}
		d.drain = o
	case nodeRoll:
		r, problem := d.rollSettings()
		if problem != "" {
			d.problem = problem
			return false
		}
		plan, err := m.actions.PlanRoll(d.group, r)
		if err != nil {
			d.problem = err.Error()
			return false
		}
		d.roll, d.plan = r, plan
	}
	return true
}

// sendNode closes the dialog and sends its request once, unless its nodes
// have gone meanwhile.
func (m Model) sendNode() (tea.Model, tea.Cmd) {
	d := m.dialog.node
	m.dialog = nil
	if m.busy != "" {
		m.toast = "still waiting for " + m.busy + " — one action at a time"
		return m, nil
	}
	if gone := goneNodes(m.s, d); len(gone) > 0 {
		m.toast = "✖ " + strings.Join(gone, ", ") + " no longer exists (deleted or replaced while the dialog was open) — nothing sent; pick a node again"
		return m, nil
	}
	req := d.request()
	return m.steer(req, req.Summary())
}

// steer sends n, space or x to a roll: no dialog, one request.
func (m Model) steer(req action.Request, summary string) (tea.Model, tea.Cmd) {
	if m.busy != "" {
		m.toast = "still waiting for " + m.busy + " — one action at a time"
		return m, nil
	}
	m.busy = summary
	m.toast = "sending " + summary + " …"
	acts := m.actions
	return m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
		defer cancel()
		result, err := acts.Send(ctx, req)
		return nodeDoneMsg{summary: summary, req: req, result: result, err: err}
	}
}

// nodeDone reports a node request's result in the footer and the timeline.
func (m Model) nodeDone(msg nodeDoneMsg) (tea.Model, tea.Cmd) {
	m.busy = ""
	line, warning := msg.summary+": "+msg.result, false
	switch {
	case errors.Is(msg.err, action.ErrNothingToDo):
		line = msg.summary + ": nothing sent — " + msg.err.Error()
	case msg.err != nil:
		line, warning = msg.summary+": failed — "+msg.err.Error(), true
	}
	if np, ok := m.panes[focusNodes].(*nodesPane); ok && msg.err == nil {
		clear(np.marked)
	}
	m.toast = "✔ " + line
	if warning {
		m.toast = "✖ " + line
	}
	m.note(msg.req.Object(), line, warning)
	m.refresh()
	return m, nil
}

// note adds a line to the timeline of the deployment shown.
func (m *Model) note(object, message string, warning bool) {
	m.s.src.AddAction(m.s.namespace, m.s.deployment, model.TimelineEntry{
		Time: m.clock(), Object: object, Message: message, Warning: warning,
	})
}
