package ui

import (
	"context"
	"errors"
	"reflect"
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/ui/draw"
)

// ActionTimeout bounds one action's requests: past it the console says the
// API server did not answer rather than waiting forever.
const ActionTimeout = 30 * time.Second

// inspectedMsg brings a deployment's containers to a set image or set env
// dialog.
type inspectedMsg struct {
	req        action.Request
	containers []action.Container
	err        error
}

// actionDoneMsg is the result of one sent action.
type actionDoneMsg struct {
	req    action.Request
	result string
	err    error
}

// previewMsg brings the undo confirmation its template diff.
type previewMsg struct {
	revision int64
	diff     []model.DiffLine
	err      error
}

// forecastMsg brings the confirmation its forecast.
type forecastMsg struct {
	req  action.Request
	text string
	err  error
}

// forecast asks what the rollout will do.
func (m Model) forecast(r action.Request) tea.Cmd {
	acts := m.actions
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
		defer cancel()
		text, err := acts.Forecast(ctx, r)
		return forecastMsg{req: r, text: text, err: err}
	}
}

// forecasted shows the forecast, if its confirmation is still open.
func (m Model) forecasted(msg forecastMsg) (tea.Model, tea.Cmd) {
	d := m.dialog
	if d == nil || d.stage != stageConfirm || !reflect.DeepEqual(d.req, msg.req) {
		return m, nil
	}
	if msg.err != nil {
		d.forecast = "no forecast: " + msg.err.Error()
	} else {
		d.forecast = msg.text
	}
	return m, nil
}

// confirming is what opening a confirmation asks for in the background:
// the forecast and, for an undo, the template diff.
func (m Model) confirming(d *dialog) tea.Cmd {
	if d.refusal != "" {
		return nil
	}
	var cmds []tea.Cmd
	if d.req.Spec().Forecast {
		cmds = append(cmds, m.forecast(d.req))
	}
	if d.req.Action == action.Undo {
		cmds = append(cmds, m.preview(d.req))
	}
	return tea.Batch(cmds...)
}

// startAction opens the dialog for kind, or says why it cannot.
func (m Model) startAction(kind action.Name) (tea.Model, tea.Cmd) {
	s := m.s
	switch {
	case m.actions == nil:
		m.toast = string(kind) + ": no cluster to act on"
		return m, nil
	case m.busy != "":
		// A second press while the first is on its way sends nothing.
		m.toast = "still waiting for " + m.busy + " — one action at a time"
		return m, nil
	case !s.haveRollout:
		m.toast = string(kind) + ": no deployment selected — press : to pick one"
		return m, nil
	}
	req := action.Request{Action: kind, Namespace: s.namespace, Name: s.deployment}
	r := s.rollout
	d := &dialog{req: req, title: req.Kubectl()}
	switch kind {
	case action.SetImage, action.SetEnv:
		// The containers come from the API: the views only keep images.
		m.busy = "the containers of deployment/" + s.deployment
		acts := m.actions
		return m, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
			defer cancel()
			cs, err := acts.Containers(ctx, req.Namespace, req.Name)
			return inspectedMsg{req: req, containers: cs, err: err}
		}
	case action.Scale:
		d.stage, d.input = stageInput, draw.Itoa(r.Replicas)
		d.startInput()
	case action.Pause:
		if r.Paused {
			m.toast = "deployment/" + s.deployment + " is already paused — nothing sent"
			return m, nil
		}
		d.stage = stageConfirm
	case action.Resume:
		if !r.Paused {
			m.toast = "deployment/" + s.deployment + " is not paused — nothing sent"
			return m, nil
		}
		d.stage = stageConfirm
	case action.Restart:
		d.stage = stageConfirm
	case action.Undo:
		d.stage, d.revisions = stagePickRevision, r.History
		// Start on the revision before the current one: undo's default.
		for i, h := range r.History {
			if h.Current && i > 0 {
				d.cursor = i - 1
			}
		}
	case action.Abort:
		if r.Done {
			m.toast = "the rollout of revision " + draw.Itoa(r.Revision) + " has finished — nothing to abort"
			return m, nil
		}
		d.stage = stageConfirm
	}
	return m.openDialog(d)
}

// openDialog shows d, preparing its plan when it starts at the
// confirmation.
func (m Model) openDialog(d *dialog) (tea.Model, tea.Cmd) {
	m.dialog = d
	if d.stage == stageConfirm || d.stage == stagePickRevision {
		m.prepare(d)
		if d.stage == stageConfirm && m.assumeYes && d.refusal == "" {
			return m.send()
		}
		if d.stage == stageConfirm {
			return m, m.confirming(d)
		}
	}
	return m, nil
}

// inspected opens the set image / set env dialog once the containers are
// known.
func (m Model) inspected(msg inspectedMsg) (tea.Model, tea.Cmd) {
	m.busy = ""
	if msg.err != nil {
		m.toast = string(msg.req.Action) + ": " + msg.err.Error()
		return m, nil
	}
	if len(msg.containers) == 0 {
		m.toast = string(msg.req.Action) + ": deployment/" + msg.req.Name + " has no containers"
		return m, nil
	}
	d := &dialog{req: msg.req, containers: msg.containers, title: string(msg.req.Action)}
	if msg.req.Action == action.SetImage {
		d.completions = m.pastImages()
	}
	if len(msg.containers) == 1 {
		d.req.Container = msg.containers[0].Name
		d.stage = stageInput
		d.startInput()
	}
	m.dialog = d
	return m, nil
}

// pastImages are the images of every revision, newest first, for the set
// image completion.
func (m *Model) pastImages() []string {
	seen := map[string]bool{}
	var out []string
	h := m.s.rollout.History
	for i := len(h) - 1; i >= 0; i-- {
		for _, img := range h[i].Images {
			if !seen[img] {
				seen[img] = true
				out = append(out, img)
			}
		}
	}
	return out
}

// dialogKey routes a key to the open dialog and acts on what it decided.
func (m Model) dialogKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	d := m.dialog
	switch d.key(msg, m.keys) {
	case dialogCancel:
		m.dialog = nil
		return m, nil
	case dialogSend:
		return m.send()
	case dialogNext:
		if d.stage == stageInput && !d.accept() {
			return m, nil
		}
		if !m.prepare(d) {
			return m, nil
		}
		d.stage = stageConfirm
		if m.assumeYes && d.refusal == "" {
			return m.send()
		}
		return m, m.confirming(d)
	}
	if d.stage == stagePickRevision {
		m.prepare(d) // the preview follows the cursor
	}
	return m, nil
}

// preview asks for the undo's template diff.
func (m Model) preview(r action.Request) tea.Cmd {
	acts := m.actions
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
		defer cancel()
		diff, err := acts.UndoPreview(ctx, r.Namespace, r.Name, r.Revision)
		return previewMsg{revision: r.Revision, diff: diff, err: err}
	}
}

// previewed shows the diff, if the confirmation it was for is still open.
func (m Model) previewed(msg previewMsg) (tea.Model, tea.Cmd) {
	d := m.dialog
	if d == nil || d.req.Action != action.Undo || d.stage != stageConfirm || d.req.Revision != msg.revision {
		return m, nil
	}
	d.diff, d.diffErr, d.diffReady = msg.diff, msg.err, true
	return m, nil
}

// send closes the dialog and sends its request once; the result comes back
// as an actionDoneMsg.
func (m Model) send() (tea.Model, tea.Cmd) {
	d := m.dialog
	m.dialog = nil
	if m.busy != "" {
		m.toast = "still waiting for " + m.busy + " — one action at a time"
		return m, nil
	}
	req, acts := d.req, m.actions
	m.busy = req.Summary()
	m.toast = "sending " + req.Summary() + " …"
	return m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
		defer cancel()
		result, err := acts.Send(ctx, req)
		return actionDoneMsg{req: req, result: result, err: err}
	}
}

// done reports an action's result in the footer and the timeline.
func (m Model) done(msg actionDoneMsg) (tea.Model, tea.Cmd) {
	m.busy = ""
	r := msg.req
	line, warning := r.Summary()+": "+msg.result, false
	switch {
	case errors.Is(msg.err, action.ErrNothingToDo):
		line = r.Summary() + ": nothing sent — " + msg.err.Error()
	case msg.err != nil:
		line, warning = r.Summary()+": failed — "+msg.err.Error(), true
	case r.Action == action.Pause || r.Action == action.Resume || r.ResumeFirst:
		// The header shows the new state at once, before the watch
		// brings it.
		m.s.pausedWant = &pausedWant{paused: r.Action == action.Pause, until: time.Now().Add(pausedWantFor)}
		m.s.rollout.Paused = r.Action == action.Pause
	}
	if warning {
		m.toast = "✖ " + line
	} else {
		m.toast = "✔ " + line
	}
	m.s.src.AddAction(r.Namespace, r.Name, model.TimelineEntry{
		Time: m.clock(), Object: r.Object(), Message: line, Warning: warning,
	})
	m.refresh()
	return m, nil
}

// pausedWant is the paused state an action just set, shown until the watch
// agrees or pausedWantFor has passed (someone else may have changed it).
type pausedWant struct {
	paused bool
	until  time.Time
}

const pausedWantFor = 5 * time.Second

// applyPausedWant keeps the header's PAUSED badge on what was just sent.
func (s *screen) applyPausedWant() {
	w := s.pausedWant
	if w == nil || !s.haveRollout {
		return
	}
	if s.rollout.Paused == w.paused || time.Now().After(w.until) {
		s.pausedWant = nil
		return
	}
	s.rollout.Paused = w.paused
}
