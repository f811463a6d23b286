package screen

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
)

// The one request runner. Every action — a dialog's, a key's that needs no
// dialog, any object's — is handed to Send, which holds it as the one
// request on its way, bounds it by ActionTimeout, says "sending …" in the
// footer and calls Actions.Send; the result comes back to the root as a Sent
// message, and Finish says ✔ or ✖ in the footer and puts the same line on
// the timeline.

// ActionTimeout bounds one action's requests: past it the console says the
// API server did not answer rather than waiting for ever.
const ActionTimeout = 30 * time.Second

// Sent is the result of one request the runner sent.
type Sent struct {
	Request action.Request
	// Summary names the request in the footer and the timeline.
	Summary string
	Result  string
	Err     error
}

// Busy names the request on its way, "" when none.
func (s *Screen) Busy() string { return s.busy }

// StillBusy reports whether a request is on its way, saying so in the
// footer: one at a time, so a key pressed twice sends nothing twice.
func (s *Screen) StillBusy() bool {
	if s.busy == "" {
		return false
	}
	s.Toast = "still waiting for " + s.busy + " — one action at a time"
	return true
}

// RolloutRequest is a request of kind on the deployment shown, for a
// rollout action's dialog to build on, and whether one may be made now:
// not while another is on its way, nor with no deployment shown — the
// footer says which.
func (s *Screen) RolloutRequest(kind action.Name) (action.Request, bool) {
	switch {
	case s.StillBusy():
		// A second press while the first is on its way sends nothing.
		return action.Request{}, false
	case !s.HaveRollout:
		s.Toast = string(kind) + ": no deployment selected — press : to pick one"
		return action.Request{}, false
	}
	return action.Request{Action: kind, Namespace: s.Namespace, Name: s.Deployment}, true
}

// Send sends r once, named by its own summary.
func (s *Screen) Send(r action.Request) tea.Cmd { return s.SendAs(r, r.Summary()) }

// SendAs sends r once, named summary in the footer and the timeline; nil
// when another request is still on its way.
func (s *Screen) SendAs(r action.Request, summary string) tea.Cmd {
	if s.StillBusy() {
		return nil
	}
	s.busy = summary
	s.Toast = "sending " + summary + " …"
	acts := s.Actions
	return Ask(func(ctx context.Context) tea.Msg {
		result, err := acts.Send(ctx, r)
		return Sent{Request: r, Summary: summary, Result: result, Err: err}
	})
}

// Finish reports a request's result in the footer and on the timeline of
// the deployment it changed, or of the one shown for the other objects.
func (s *Screen) Finish(msg Sent) {
	s.busy = ""
	r := msg.Request
	line, warning, glyph := msg.Summary+": "+msg.Result, false, "✔ "
	switch {
	case errors.Is(msg.Err, action.ErrNothingToDo):
		// Not a success: nothing was sent.
		line, glyph = msg.Summary+": nothing sent — "+msg.Err.Error(), "⊘ "
	case msg.Err != nil:
		line, warning = msg.Summary+": failed — "+msg.Err.Error(), true
	case r.Action == action.Pause || r.Action == action.Resume || r.ResumeFirst:
		// The header shows the new state at once, before the watch
		// brings it.
		paused := r.Action == action.Pause
		s.pausedWant = &pausedWant{paused: paused, until: time.Now().Add(pausedWantFor)}
		s.Rollout.Paused = paused
	}
	s.Toast = glyph + line
	if warning {
		s.Toast = "✖ " + line
	}
	ns, name := s.Namespace, s.Deployment
	if r.Spec().On == action.OnDeployment {
		ns, name = r.Namespace, r.Name
	}
	s.Src.AddAction(ns, name, cluster.TimelineEntry{Time: s.Clock(), Object: r.Object(), Message: line, Warning: warning})
}

// Fetch runs a read an overlay needs before it can open (a deployment's
// containers for set image), holding the runner as busy with what until
// the overlay calls Fetched.
func (s *Screen) Fetch(what string, read func(context.Context) tea.Msg) tea.Cmd {
	if s.StillBusy() {
		return nil
	}
	s.busy = what
	return Ask(read)
}

// Fetched frees the runner after a Fetch.
func (s *Screen) Fetched() { s.busy = "" }

// Ask runs read in a command, bounded by ActionTimeout: the forecasts,
// previews and plans the dialogs show before anything is sent.
func Ask(read func(context.Context) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
		defer cancel()
		return read(ctx)
	}
}

// Pending is a read a component asks for in the background and may stop
// before it answers: the forecast of a confirmation closed, or asked again,
// stops rehearsing, rather than holding a copy of the workload and a
// processor for up to ActionTimeout, one more each time a dialog is opened
// and closed again. Its zero value holds none.
type Pending struct{ cancel context.CancelFunc }

// Ask stops the read p holds and runs read as Ask does, held by p.
func (p *Pending) Ask(read func(context.Context) tea.Msg) tea.Cmd {
	p.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), ActionTimeout)
	p.cancel = cancel
	return func() tea.Msg {
		defer cancel()
		return read(ctx)
	}
}

// Stop cancels the read p holds, if any; its answer then carries
// context.Canceled, which nobody waits for.
func (p *Pending) Stop() {
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

// pausedWant is the paused state an action just set, shown until the watch
// agrees or pausedWantFor has passed (someone else may have changed it).
type pausedWant struct {
	paused bool
	until  time.Time
}

const pausedWantFor = 5 * time.Second

// applyPausedWant keeps the header's PAUSED badge on what was just sent.
func (s *Screen) applyPausedWant() {
	w := s.pausedWant
	if w == nil || !s.HaveRollout {
		return
	}
	if s.Rollout.Paused == w.paused || time.Now().After(w.until) {
		s.pausedWant = nil
		return
	}
	s.Rollout.Paused = w.paused
}
