package ui

import (
	"context"
	"errors"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
)

// ActionTimeout bounds one action's requests: past it the console says the
// API server did not answer rather than waiting forever.
const ActionTimeout = 30 * time.Second

// inspectedMsg brings a deployment's containers to a set image or set env
// dialog.
type inspectedMsg struct {
	req        ActionRequest
	containers []Container
	err        error
}

// actionDoneMsg is the result of one sent action.
type actionDoneMsg struct {
	req    ActionRequest
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
	req  ActionRequest
	text string
	err  error
}

// startsRollout reports whether the action starts a rollout the forecast
// can describe.
func startsRollout(k ActionKind) bool { return k == ActSetImage || k == ActUndo || k == ActAbort }

// forecast asks what the rollout will do.
func (m Model) forecast(r ActionRequest) tea.Cmd {
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
	if d == nil || d.stage != stageConfirm || d.req != msg.req {
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
	if startsRollout(d.req.Kind) {
		cmds = append(cmds, m.forecast(d.req))
	}
	if d.req.Kind == ActUndo {
		cmds = append(cmds, m.preview(d.req))
	}
	return tea.Batch(cmds...)
}

// actionRecorder is a Source that keeps the console's actions in the
// timeline; model.Cluster is one.
type actionRecorder interface {
	AddAction(namespace, name string, e model.TimelineEntry)
}

// actionKind finds the enabled rollout action bound to the pressed key.
func (m *Model) actionKind(msg tea.KeyPressMsg) (ActionKind, bool) {
	k := m.keys
	for _, a := range []struct {
		b    key.Binding
		kind ActionKind
	}{
		{k.SetImage, ActSetImage}, {k.SetEnv, ActSetEnv}, {k.Scale, ActScale}, {k.Restart, ActRestart},
		{k.Pause, ActPause}, {k.Resume, ActResume}, {k.Undo, ActUndo}, {k.Abort, ActAbort},
	} {
		if key.Matches(msg, a.b) {
			return a.kind, true
		}
	}
	return 0, false
}

// startAction opens the dialog for kind, or says why it cannot.
func (m Model) startAction(kind ActionKind) (tea.Model, tea.Cmd) {
	s := m.s
	switch {
	case m.actions == nil:
		m.toast = kind.Name() + ": no cluster to act on"
		return m, nil
	case m.busy != "":
		// A second press while the first is on its way sends nothing.
		m.toast = "still waiting for " + m.busy + " — one action at a time"
		return m, nil
	case !s.haveRollout:
		m.toast = kind.Name() + ": no deployment selected — press : to pick one"
		return m, nil
	}
	req := ActionRequest{Kind: kind, Namespace: s.namespace, Deployment: s.deployment}
	r := s.rollout
	d := &dialog{req: req, title: req.Kubectl()}
	switch kind {
	case ActSetImage, ActSetEnv:
		// The containers come from the API: the views only keep images.
		m.busy = "the containers of deployment/" + s.deployment
		acts := m.actions
		return m, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
			defer cancel()
			cs, err := acts.Inspect(ctx, req.Namespace, req.Deployment)
			return inspectedMsg{req: req, containers: cs, err: err}
		}
	case ActScale:
		d.stage, d.input = stageInput, itoa(r.Replicas)
		d.startInput()
	case ActPause:
		if r.Paused {
			m.toast = "deployment/" + s.deployment + " is already paused — nothing sent"
			return m, nil
		}
		d.stage = stageConfirm
	case ActResume:
		if !r.Paused {
			m.toast = "deployment/" + s.deployment + " is not paused — nothing sent"
			return m, nil
		}
		d.stage = stageConfirm
	case ActRestart:
		d.stage = stageConfirm
	case ActUndo:
		d.stage, d.revisions = stagePickRevision, r.History
		// Start on the revision before the current one: undo's default.
		for i, h := range r.History {
			if h.Current && i > 0 {
				d.cursor = i - 1
			}
		}
	case ActAbort:
		if r.Done {
			m.toast = "the rollout of revision " + itoa(r.Revision) + " has finished — nothing to abort"
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
		m.toast = msg.req.Kind.Name() + ": " + msg.err.Error()
		return m, nil
	}
	if len(msg.containers) == 0 {
		m.toast = msg.req.Kind.Name() + ": deployment/" + msg.req.Deployment + " has no containers"
		return m, nil
	}
	d := &dialog{req: msg.req, containers: msg.containers, title: msg.req.Kind.Name()}
	if msg.req.Kind == ActSetImage {
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
func (m Model) preview(r ActionRequest) tea.Cmd {
	acts := m.actions
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
		defer cancel()
		diff, err := acts.UndoPreview(ctx, r.Namespace, r.Deployment, r.Revision)
		return previewMsg{revision: r.Revision, diff: diff, err: err}
	}
}

// previewed shows the diff, if the confirmation it was for is still open.
func (m Model) previewed(msg previewMsg) (tea.Model, tea.Cmd) {
	d := m.dialog
	if d == nil || d.req.Kind != ActUndo || d.stage != stageConfirm || d.req.Revision != msg.revision {
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
		result, err := acts.Do(ctx, req)
		return actionDoneMsg{req: req, result: result, err: err}
	}
}

// done reports an action's result in the footer and the timeline.
func (m Model) done(msg actionDoneMsg) (tea.Model, tea.Cmd) {
	m.busy = ""
	r := msg.req
	line, warning := r.Summary()+": "+msg.result, false
	switch {
	case errors.Is(msg.err, ErrNothingToDo):
		line = r.Summary() + ": nothing sent — " + msg.err.Error()
	case msg.err != nil:
		line, warning = r.Summary()+": failed — "+msg.err.Error(), true
	case r.Kind == ActPause || r.Kind == ActResume || r.ResumeFirst:
		// The header shows the new state at once, before the watch
		// brings it.
		m.s.pausedWant = &pausedWant{paused: r.Kind == ActPause, until: time.Now().Add(pausedWantFor)}
		m.s.rollout.Paused = r.Kind == ActPause
	}
	if warning {
		m.toast = "✖ " + line
	} else {
		m.toast = "✔ " + line
	}
	if rec, ok := m.s.src.(actionRecorder); ok {
		rec.AddAction(r.Namespace, r.Deployment, model.TimelineEntry{
			Time: m.clock(), Object: "deployment/" + r.Deployment, Message: line, Warning: warning,
		})
	}
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
