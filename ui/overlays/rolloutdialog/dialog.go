// Package rolloutdialog is the rollout dialogs overlay: set image, set env,
// scale, restart, pause, resume, undo and abort of the deployment shown.
// Each dialog builds one action.Request step by step — pick a container or
// a revision, type a value — and shows what it will do before anything is
// sent: the kubectl command that sends the same, the plan, and for the
// actions that start a rollout a forecast rehearsed on a copy. On y the
// request goes to the console's one request runner.
package rolloutdialog

import (
	"context"
	"errors"
	"reflect"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/overlays/canarydialog"
	"rollscope/ui/screen"
)

// canCanary reports whether r's change can roll as a guided canary: a set
// image or set env, with no canary running yet.
func canCanary(r action.Request) bool {
	return r.Action == action.SetImage || r.Action == action.SetEnv
}

// stage is where a dialog is: choosing, typing, or asking for y.
type stage int

const (
	stagePickContainer stage = iota
	stageInput
	stagePickRevision
	stageConfirm
)

// Dialog builds one action request and shows what it will do before it is
// sent. It sends nothing itself: y hands the request to the runner.
type Dialog struct {
	s     *screen.Screen
	w, h  int
	req   action.Request
	stage stage

	containers []action.Container
	cursor     int // in containers or revisions
	revisions  []cluster.RevisionRow

	// input is the text typed; prompt says what it is for.
	prompt, input string
	// completions are offered by tab: images of earlier revisions.
	completions []string
	completed   int

	// problem is why the input was refused, shown until the next key.
	problem string
	// plan is what will happen, shown at the confirmation.
	plan []string
	diff []cluster.DiffLine
	// diffReady is set once the undo preview has come back, with
	// diffErr when it could not be read.
	diffReady bool
	diffErr   error
	// forecast is what the rollout will do, "" until it is known;
	// forecasting is its rehearsal while it runs.
	forecast    string
	forecasting screen.Pending
	// refusal, when set, is why nothing will be sent; the confirmation
	// then only closes.
	refusal string
	// basis is the rollout the confirmation's plan was made from.
	basis basis
	// frame scrolls what the dialog says under its keys.
	frame screen.Frame
}

// Open opens the dialog for kind on the deployment shown, or says in the
// footer why it cannot (nil). Set image and set env first read the
// deployment's containers: the dialog opens when Containers comes back.
// A dialog that starts at its confirmation is sent at once with --yes.
func Open(s *screen.Screen, kind action.Name) (screen.Overlay, tea.Cmd) {
	req, ok := s.RolloutRequest(kind)
	if !ok {
		return nil, nil
	}
	r := s.Rollout
	d := &Dialog{s: s, req: req}
	switch kind {
	case action.SetImage, action.SetEnv:
		// The containers come from the API: the views only keep images.
		acts := s.Actions
		return nil, s.Fetch("the containers of deployment/"+s.Deployment, func(ctx context.Context) tea.Msg {
			cs, err := acts.Containers(ctx, req.Namespace, req.Name)
			return Containers{req: req, containers: cs, err: err}
		})
	case action.Scale:
		d.stage = stageInput
		d.startInput()
		return d, nil
	case action.Pause:
		if r.Paused {
			s.Toast = "deployment/" + s.Deployment + " is already paused — nothing sent"
			return nil, nil
		}
		d.stage = stageConfirm
	case action.Resume:
		if !r.Paused {
			s.Toast = "deployment/" + s.Deployment + " is not paused — nothing sent"
			return nil, nil
		}
		d.stage = stageConfirm
	case action.Restart:
		d.stage = stageConfirm
	case action.Undo:
		d.stage, d.revisions = stagePickRevision, r.History
		// Start on the revision the History pane has selected, else on
		// the one before the current one: undo's default.
		for i, h := range r.History {
			if h.Current && i > 0 {
				d.cursor = i - 1
			}
		}
		for i, h := range r.History {
			if s.SelectedRevision != 0 && h.Revision == s.SelectedRevision && !h.Current {
				d.cursor = i
			}
		}
		d.prepare()
		return d, nil
	case action.Abort:
		if r.Done {
			s.Toast = "the rollout of revision " + draw.Itoa(r.Revision) + " has finished — nothing to abort"
			return nil, nil
		}
		d.stage = stageConfirm
	}
	d.prepare()
	d.basis = basisOf(s.Rollout)
	if s.AssumeYes && d.refusal == "" {
		return d.send()
	}
	return d, d.confirming()
}

// SetSize sizes the dialog to the body.
func (d *Dialog) SetSize(w, h int) { d.w, d.h = w, h; d.frame.SetSize(w, h) }

// Update handles a key, the forecast and the undo preview; it returns nil
// once the dialog has closed. A dialog closed, or turned into another (the
// canary's), stops its forecast.
func (d *Dialog) Update(msg tea.Msg) (screen.Overlay, tea.Cmd) {
	o, cmd := d.update(msg)
	if o != screen.Overlay(d) {
		d.forecasting.Stop()
	}
	return o, cmd
}

func (d *Dialog) update(msg tea.Msg) (screen.Overlay, tea.Cmd) {
	switch msg := msg.(type) {
	case Forecasted:
		// A forecast stopped (forecasting.Stop) was replaced or not wanted.
		if d.stage == stageConfirm && reflect.DeepEqual(d.req, msg.req) && !errors.Is(msg.err, context.Canceled) {
			d.forecast = msg.text
			if msg.err != nil {
				d.forecast = "no forecast: " + msg.err.Error()
			}
		}
	case Previewed:
		if d.req.Action == action.Undo && d.stage == stageConfirm && d.req.Revision == msg.revision {
			d.diff, d.diffErr, d.diffReady = msg.diff, msg.err, true
		}
	case tea.KeyPressMsg:
		return d.key(msg)
	case tea.MouseWheelMsg:
		d.frame.Move(msg, d.s.Keys, false, len(d.content()))
	}
	return d, nil
}

// key handles one key press inside the dialog.
func (d *Dialog) key(msg tea.KeyPressMsg) (screen.Overlay, tea.Cmd) {
	d.problem = ""
	km := d.s.Keys
	if key.Matches(msg, km.Back) {
		return nil, nil
	}
	// The lists move their cursor with ↑/↓; elsewhere those keys scroll
	// what the dialog says when it does not fit.
	picking := d.stage == stagePickContainer || d.stage == stagePickRevision
	if !picking && d.frame.Move(msg, km, d.stage == stageInput, len(d.content())) {
		return d, nil
	}
	switch d.stage {
	case stagePickContainer:
		if d.pick(msg, len(d.containers)) {
			d.req.Container = d.containers[d.cursor].Name
			d.stage = stageInput
			d.startInput()
			d.frame.Top()
		}
	case stagePickRevision:
		if d.pick(msg, len(d.revisions)) {
			d.req.Revision = d.revisions[d.cursor].Revision
			d.frame.Top()
			return d.next()
		}
		d.prepare() // the preview follows the cursor
	case stageInput:
		if d.typing(msg) && d.accept() {
			return d.next()
		}
	case stageConfirm:
		switch msg.String() {
		case "y", "Y":
			if d.refusal != "" {
				return nil, nil
			}
			return d.confirm()
		case "c":
			if d.refusal == "" && canCanary(d.req) {
				return canarydialog.AsCanary(d.s, d.req)
			}
		case "n", "N", "q":
			return nil, nil
		case "enter":
			if d.refusal != "" {
				return nil, nil
			}
		}
	}
	return d, nil
}

// next checks what was chosen or typed and moves on to the confirmation,
// or sends at once with --yes.
func (d *Dialog) next() (screen.Overlay, tea.Cmd) {
	if !d.prepare() {
		return d, nil
	}
	d.stage = stageConfirm
	d.frame.Top()
	d.basis = basisOf(d.s.Rollout)
	if d.s.AssumeYes && d.refusal == "" {
		return d.send()
	}
	return d, d.confirming()
}

// send closes the dialog and hands its request to the runner.
func (d *Dialog) send() (screen.Overlay, tea.Cmd) { return nil, d.s.Send(d.req) }

// pick moves a cursor over n choices; it reports whether enter took the
// choice.
func (d *Dialog) pick(msg tea.KeyPressMsg, n int) bool {
	km := d.s.Keys
	switch {
	case key.Matches(msg, km.Up):
		d.cursor = max(d.cursor-1, 0)
	case key.Matches(msg, km.Down):
		d.cursor = min(d.cursor+1, max(n-1, 0))
	case key.Matches(msg, km.Top):
		d.cursor = 0
	case key.Matches(msg, km.Bottom):
		d.cursor = max(n-1, 0)
	case key.Matches(msg, km.Select) && n > 0:
		return true
	}
	// The heading and the question come before the list.
	d.frame.Reveal(2 + d.cursor)
	return false
}

// Writes reports that the dialog asks before changing the cluster: the
// console holds the embedded clock while it is open.
func (d *Dialog) Writes() bool { return d.req.Spec().Writes }
