package rcdialog

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// basis is what the dialog's plan was made from: the controller and the
// update it takes part in. A live cluster moves while the operator reads
// the plan (the embedded one is held): y first checks that it still
// stands. The sizes the update steps through are left out — they move
// with every step, and neither plan depends on them.
type basis struct {
	found, updating, rollback bool
	phase                     model.RCPhase
	old, next                 string
	images, nextImages        []string
	// replicas is the controller's size when no update runs: what an
	// update grows the next controller to.
	replicas int32
	original int32
}

// now reads the controller and its update as the console sees them now.
func (d *Dialog) now() (cluster.RCUpdateView, basis) {
	v, ok := d.s.Src.RCUpdate(d.namespace, d.name)
	b := basis{found: ok, updating: v.Updating, rollback: v.Rollback, phase: v.Phase, old: v.Old.Name, next: v.Next.Name,
		images: v.Old.Images, nextImages: v.Next.Images}
	if v.Updating {
		b.original = original(v)
	} else {
		b.replicas = v.Old.Desired
	}
	return v, b
}

// changes says in the operator's words what differs between b and now.
func (b basis) changes(name string, now basis) []string {
	if !now.found {
		return []string{"replicationcontroller " + name + " is gone"}
	}
	var out []string
	switch {
	case b.updating && !now.updating:
		out = append(out, "the update of rc/"+name+" has ended")
	case !b.updating && now.updating:
		out = append(out, "an update of rc/"+name+" has started")
	case b.phase != now.phase:
		out = append(out, fmt.Sprintf("the update moved from phase %s to %s", b.phase, now.phase))
	}
	if !b.rollback && now.rollback {
		out = append(out, "the update is being rolled back")
	}
	if b.old != now.old || b.next != now.next {
		out = append(out, fmt.Sprintf("the controllers are now %s and %s", draw.OrDash(now.old), draw.OrDash(now.next)))
	}
	if !slices.Equal(b.images, now.images) {
		out = append(out, "rc/"+now.old+"'s images became "+draw.OrDash(strings.Join(now.images, ", ")))
	}
	if !slices.Equal(b.nextImages, now.nextImages) && b.next == now.next && now.next != "" {
		out = append(out, "rc/"+now.next+"'s images became "+draw.OrDash(strings.Join(now.nextImages, ", ")))
	}
	if b.replicas != now.replicas && !now.updating {
		out = append(out, fmt.Sprintf("replicas went from %d to %d", b.replicas, now.replicas))
	}
	if b.original != now.original && now.updating && b.updating {
		out = append(out, fmt.Sprintf("the size an abort restores went from %d to %d", b.original, now.original))
	}
	return out
}

// confirm is y: the request goes to the runner only if the controller is
// still as the plan was made from. Otherwise nothing is sent and the
// dialog says what changed: an abort is planned again from the update as
// it is (or refused, when there is nothing left to abort), an update is
// planned again from the same fields, and y sends the new plan.
func (d *Dialog) confirm() (*Dialog, tea.Cmd) {
	v, now := d.now()
	changed := d.basis.changes(d.name, now)
	if len(changed) == 0 {
		return d.send()
	}
	d.basis = now
	d.moved = "nothing sent: " + strings.Join(changed, "; ") + " since this plan was shown"
	switch {
	case d.abort:
		if why := AbortRefusal(v); why != "" || !now.found {
			d.refused = true
			if why == "" {
				why = "nothing to abort"
			}
			d.moved += " — " + why
			return d, nil
		}
		d.lines = abortLines(v)
		d.moved += " — read it again; y aborts as it now says"
		return d, nil
	case now.updating || !now.found:
		d.refused = true
		d.moved += " — esc; the view shows what is happening"
		return d, nil
	}
	// The update is planned again, as the fields ask, from the controller
	// as it is now.
	d.plan = nil
	d.moved += " — planning it again; y sends the new plan"
	return d, d.ask()
}
