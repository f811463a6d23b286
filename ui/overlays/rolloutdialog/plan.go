package rolloutdialog

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/screen"
)

// The plan is made once, when the dialog reaches its confirmation, from
// the cluster as the console sees it (prepare, with the request's check).
// On y it is made again only if the cluster moved since (confirm): what
// it was made from is its basis.

// prepare checks the request and writes the plan the confirmation shows. It
// returns false, with the reason in d.problem, when the input is refused;
// an action that would send nothing gets a refusal instead of a plan.
func (d *Dialog) prepare() bool {
	r := &d.req
	s := d.s
	d.plan, d.diff, d.refusal = nil, nil, ""
	if r.Action == action.Undo {
		return d.prepareUndo()
	}
	if err := s.Actions.Check(*r); err != nil {
		d.problem = err.Error()
		return false
	}
	name := "deployment/" + r.Name
	view := s.Rollout
	switch r.Action {
	case action.SetImage:
		was := ""
		for _, c := range d.containers {
			if c.Name == r.Container {
				was = c.Image
			}
		}
		if was == r.Image {
			d.problem = r.Container + " already runs " + r.Image + " — type another image"
			return false
		}
		d.plan = append(d.plan, fmt.Sprintf("%s: %s → %s", r.Container, was, r.Image),
			startsRollout(view, fmt.Sprintf("starts a rollout of %s (maxSurge %d, maxUnavailable %d)", model.Plural(view.Replicas, "replica"), view.MaxSurge, view.MaxUnavailable)))
		if s.Record {
			d.plan = append(d.plan, "records kubernetes.io/change-cause: "+action.ChangeCause(r.Name, r.Container, r.Image))
		}
	case action.SetEnv:
		n, v, remove, _ := r.EnvChange()
		if now, set := d.envNow(n); remove && !set {
			d.refusal = n + " is not set in " + r.Container + " — there is nothing to remove and nothing will be sent"
			return true
		} else if !remove && set && now == v {
			d.refusal = n + " is already " + fmt.Sprintf("%q", v) + " in " + r.Container + " — the template would not change and nothing will be sent"
			return true
		}
		if remove {
			d.plan = append(d.plan, "removes "+n+" from "+r.Container)
		} else {
			d.plan = append(d.plan, fmt.Sprintf("sets %s=%q in %s", n, v, r.Container))
		}
		d.plan = append(d.plan, startsRollout(view, "a new pod template: starts a rollout"))
	case action.Scale:
		if r.Replicas == view.Replicas {
			d.problem = fmt.Sprintf("%s already has %s — type another number", name, model.Plural(r.Replicas, "replica"))
			return false
		}
		d.plan = append(d.plan, fmt.Sprintf("replicas %d → %d (through the scale subresource)", view.Replicas, r.Replicas))
	case action.Restart:
		if view.Paused {
			d.refusal = name + " is paused and a restart would wait — resume it first (r)"
			return true
		}
	case action.Resume:
		if view.Pending != "" {
			d.plan = append(d.plan, "rolls out the pending change: "+view.Pending)
		} else {
			d.plan = append(d.plan, "the rollout carries on from where it was held")
		}
	case action.Abort:
		stable, ok := cluster.AbortTarget(view)
		if view.Done {
			d.refusal = "the rollout of revision " + draw.Itoa(view.Revision) + " has finished — nothing to abort"
			return true
		}
		if !ok {
			d.refusal = "revision " + draw.Itoa(view.Revision) + " is the first: there is nothing to go back to"
			return true
		}
		done := model.Abort{Revision: view.Revision, Back: stable}
		d.plan = append(d.plan, fmt.Sprintf("stops the rollout of revision %d and returns to revision %d's template, the one serving before it, which becomes revision %d", view.Revision, stable, view.Revision+1),
			"records it in "+model.AbortedAnnotation+": \""+done.String()+"\"")
		if view.Paused {
			d.plan = append(d.plan, "clears pause, so the return can happen")
		}
		if view.Canary != nil {
			d.plan = append(d.plan, "ends the guided canary: its strategy, minReadySeconds and progressDeadlineSeconds go back to the deployment's own in the same update")
		}
	}
	if does := r.Spec().Does; does != "" {
		d.plan = append(d.plan, does)
	}
	return true
}

// prepareUndo checks the revision under the picker's cursor and previews
// its template against the current one.
func (d *Dialog) prepareUndo() bool {
	if len(d.revisions) == 0 {
		d.refusal = "no revisions yet"
		return true
	}
	d.cursor = min(max(d.cursor, 0), len(d.revisions)-1)
	row := d.revisions[d.cursor]
	r := &d.req
	r.Revision, r.ResumeFirst = row.Revision, false
	switch {
	case row.Gone:
		d.problem = fmt.Sprintf("revision %d is now revision %d: an undo gave its ReplicaSet that number — pick revision %d, the same template", row.Revision, row.Now, row.Now)
		return false
	case row.Current && d.s.Rollout.Pending == "":
		d.refusal = fmt.Sprintf("already at revision %d — nothing to send", row.Revision)
		return true
	}
	if err := d.s.Actions.Check(*r); err != nil {
		d.problem = err.Error()
		return false
	}
	// The controller numbers the template it goes back to after the newest.
	var newest int64
	for _, h := range d.revisions {
		newest = max(newest, h.Revision)
	}
	d.plan = append(d.plan, fmt.Sprintf("rolls deployment/%s back to revision %d's template (%s), which becomes revision %d", r.Name, row.Revision, strings.Join(row.Images, ", "), newest+1))
	if p := d.s.Rollout.Pending; p != "" {
		// Revision numbers say nothing of a template no ReplicaSet runs yet.
		line := "discards the pending change no ReplicaSet runs yet: " + p
		if d.s.Rollout.Paused {
			line += " (resuming first may start it for a moment)"
		}
		d.plan = append(d.plan, line)
	}
	if d.s.Rollout.Paused {
		r.ResumeFirst = true
		d.plan = append(d.plan, "it is paused, and kubectl refuses to roll back a paused deployment: y resumes it first, then undoes")
	}
	return true
}

// startsRollout is what a template change does: on a paused deployment it
// starts nothing, and waits as a pending change until resumed.
func startsRollout(view cluster.RolloutView, starts string) string {
	if view.Paused {
		return "the deployment is paused: the change waits, pending, until it is resumed (r)"
	}
	return starts
}

// envNow is the value of name in the dialog's container, as read when the
// dialog opened, and whether it is set.
func (d *Dialog) envNow(name string) (string, bool) {
	for _, c := range d.containers {
		if c.Name != d.req.Container {
			continue
		}
		for _, e := range c.Env {
			if k, v, ok := strings.Cut(e, "="); ok && k == name {
				return v, true
			}
		}
	}
	return "", false
}

// basis is what a confirmation's plan was made from. A live cluster moves
// while the operator reads it (the embedded one is held): y first checks
// that the plan still stands.
type basis struct {
	revision int64
	done     bool
	paused   bool
	replicas int32
	images   []string
}

func basisOf(r cluster.RolloutView) basis {
	b := basis{revision: r.Revision, done: r.Done, paused: r.Paused, replicas: r.Replicas}
	for _, h := range r.History {
		if h.Current {
			b.images = h.Images
		}
	}
	return b
}

// changes says in the operator's words what differs between b and now.
func (b basis) changes(now basis) []string {
	var out []string
	if b.revision != now.revision {
		out = append(out, fmt.Sprintf("the deployment moved from revision %d to %d", b.revision, now.revision))
	}
	if b.done != now.done {
		if now.done {
			out = append(out, "the rollout has finished")
		} else {
			out = append(out, "a new rollout has started")
		}
	}
	if b.paused != now.paused {
		if now.paused {
			out = append(out, "it was paused")
		} else {
			out = append(out, "it was resumed")
		}
	}
	if b.replicas != now.replicas {
		out = append(out, fmt.Sprintf("replicas went from %d to %d", b.replicas, now.replicas))
	}
	if !slices.Equal(b.images, now.images) {
		out = append(out, "the images became "+strings.Join(now.images, ", "))
	}
	return out
}

// confirm is y at the confirmation: the request goes to the runner only
// if the cluster is still as the plan was made from. Otherwise nothing is
// sent: the plan is made again from the cluster as it is, and the dialog
// says what changed and waits for another y.
func (d *Dialog) confirm() (screen.Overlay, tea.Cmd) {
	now := basisOf(d.s.Rollout)
	changed := d.basis.changes(now)
	if len(changed) == 0 {
		return d.send()
	}
	d.basis = now
	// The containers' images were read when the dialog opened.
	if len(now.images) == len(d.containers) {
		for i := range d.containers {
			d.containers[i].Image = now.images[i]
		}
	}
	d.forecast, d.diffReady = "", false
	if !d.prepare() {
		return d, nil
	}
	d.problem = "nothing sent: " + strings.Join(changed, "; ") + " since this plan was shown — read it again; y sends the new one"
	return d, d.confirming()
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
		cmds = append(cmds, d.forecasting.Ask(func(ctx context.Context) tea.Msg {
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
