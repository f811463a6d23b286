package rolloutdialog

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/screen"
)

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
		d.stage, d.input = stageInput, draw.Itoa(r.Replicas)
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

// Containers brings a deployment's containers to a set image or set env
// dialog.
type Containers struct {
	req        action.Request
	containers []action.Container
	err        error
}

// Opened opens the set image or set env dialog once the containers are
// known, or says why it cannot.
func Opened(s *screen.Screen, msg Containers) screen.Overlay {
	s.Fetched()
	name := string(msg.req.Action)
	if msg.err != nil {
		s.Toast = name + ": " + msg.err.Error()
		return nil
	}
	if len(msg.containers) == 0 {
		s.Toast = name + ": deployment/" + msg.req.Name + " has no containers"
		return nil
	}
	d := &Dialog{s: s, req: msg.req, containers: msg.containers}
	if msg.req.Action == action.SetImage {
		d.completions = pastImages(s.Rollout)
	}
	if len(msg.containers) == 1 {
		d.req.Container = msg.containers[0].Name
		d.stage = stageInput
		d.startInput()
	}
	return d
}

// pastImages are the images of every revision, newest first, for the set
// image completion.
func pastImages(r cluster.RolloutView) []string {
	seen := map[string]bool{}
	var out []string
	h := r.History
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

// Forecasted brings the confirmation its forecast.
type Forecasted struct {
	req  action.Request
	text string
	err  error
}

// Previewed brings the undo confirmation its template diff.
type Previewed struct {
	revision int64
	diff     []cluster.DiffLine
	err      error
}

// confirming is what opening a confirmation asks for in the background:
// the forecast and, for an undo, the template diff.
func (d *Dialog) confirming() tea.Cmd {
	if d.refusal != "" {
		return nil
	}
	acts, r := d.s.Actions, d.req
	var cmds []tea.Cmd
	if r.Spec().Forecast {
		cmds = append(cmds, screen.Ask(func(ctx context.Context) tea.Msg {
			text, err := acts.Forecast(ctx, r)
			return Forecasted{req: r, text: text, err: err}
		}))
	}
	if r.Action == action.Undo {
		cmds = append(cmds, screen.Ask(func(ctx context.Context) tea.Msg {
			diff, err := acts.UndoPreview(ctx, r.Namespace, r.Name, r.Revision)
			return Previewed{revision: r.Revision, diff: diff, err: err}
		}))
	}
	return tea.Batch(cmds...)
}
