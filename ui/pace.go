package ui

import (
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/ui/screen"
)

// Pacing. While a rollout churns the watch sends up to 20 batches a second,
// and each that changed something re-read every view and redrew the whole
// screen, which the terminal renderer then diffed cell by cell: three
// quarters of a live console's CPU, for counts that moved by one. With
// Options.Pace set the console reads and redraws at most once per Pace; a
// batch in between is applied to the picture at once and shown at the end
// of the Pace. What an operator waits for is never held back: a deployment
// that finishes, fails its deadline, pauses or resumes, and a watch that
// fails or recovers, are shown as soon as their batch arrives.
type pacer struct {
	every time.Duration
	// fleet is the pace while the fleet is shown alone (Options.FleetPace).
	fleet time.Duration
	last  time.Time // the last refresh, on the wall clock: pacing is about the terminal
	due   bool      // a paceMsg is on its way
	// rollouts are the flags of every Deployment as batches last brought
	// them, to tell a batch that changes one.
	rollouts map[rolloutKey]cluster.RolloutFlags
}

// rolloutKey names a Deployment in its cluster: the same one in two
// clusters is two rollouts.
type rolloutKey struct {
	cluster string
	ref     cluster.ObjectRef
}

// paceMsg ends a Pace with batches waiting to be shown.
type paceMsg struct{}

// batch applies b and refreshes now or at the end of the Pace.
func (m Model) batch(b cluster.Batch) (tea.Model, tea.Cmd) {
	// A batch that changed nothing visible (and left the watch as it was)
	// costs no refresh, and the frame drawn last is still the screen.
	// The batch is its cluster's: the picture of the cluster in focus
	// is compared with what the screen read of it, another's with itself.
	src, watched := m.s.Src, m.s.Watch
	if mem, ok := m.memberOf(b.Cluster); ok && mem.Context != m.s.Context {
		src, watched = mem.Src, mem.Src.Watch()
	}
	if !src.Apply(b) && src.Watch() == watched {
		return m, nil
	}
	p := m.pace
	turned := p.turned(b) // first, so that every batch keeps the flags current
	every := p.every
	if p.fleet > 0 && m.fleetAlone() {
		every = p.fleet
	}
	wait := every - time.Since(p.last)
	if every <= 0 || wait <= 0 || turned || src.Watch() != watched {
		m.refresh()
		return m, nil
	}
	if p.due {
		return m, nil
	}
	p.due = true
	return m, tea.Tick(wait, func(time.Time) tea.Msg { return paceMsg{} })
}

// memberOf is the cluster a batch is from; false for a batch that names
// none, which is the focused cluster's.
func (m Model) memberOf(context string) (screen.Member, bool) {
	if context == "" {
		return screen.Member{}, false
	}
	for _, mem := range m.s.Members {
		if mem.Context == context {
			return mem, true
		}
	}
	return screen.Member{}, false
}

// turned reports whether b finished, failed, paused or resumed a
// deployment. Only the Deployments in b are looked at: the pods' churn, and
// a fleet of thousands of Deployments, cost nothing here.
func (p *pacer) turned(b cluster.Batch) bool {
	if p.every <= 0 {
		return false
	}
	turned := false
	for ref, now := range b.Rollouts() {
		k := rolloutKey{b.Cluster, ref}
		if was, ok := p.rollouts[k]; ok && was != now {
			turned = true
		}
		if p.rollouts == nil {
			p.rollouts = map[rolloutKey]cluster.RolloutFlags{}
		}
		p.rollouts[k] = now
	}
	for _, ref := range b.Deleted {
		delete(p.rollouts, rolloutKey{b.Cluster, ref})
	}
	return turned
}

// frame is the screen as last drawn. Bubble Tea asks for View after every
// message; after a batch that was not shown yet, nothing on the screen has
// changed, and drawing it again would cost as much as drawing a new one.
// look names what a Model shows: a new one, from one counter for every
// Model, each time a message may change it, so that two copies of a Model
// never take each other's frame.
type frame struct {
	look    uint64
	w, h    int
	content string
}

var looks atomic.Uint64

func newLook() uint64 { return looks.Add(1) }

// drawn is Render, or the frame drawn last while nothing on it changed.
func (m Model) drawn() string {
	f := m.frame
	if f == nil {
		return m.Render()
	}
	if w, h := m.size(); f.look != m.look || f.w != w || f.h != h {
		*f = frame{look: m.look, w: w, h: h, content: m.Render()}
	}
	return f.content
}
