package rolloutdialog

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/ui/screen"
)

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
