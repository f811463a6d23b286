package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
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
	last  time.Time // the last refresh, on the wall clock: pacing is about the terminal
	due   bool      // a paceMsg is on its way
	// states are the deployments' finished / failed / paused flags as last
	// shown, to tell a batch that changes one.
	states map[string]deploymentState
}

type deploymentState struct{ done, failed, paused bool }

// paceMsg ends a Pace with batches waiting to be shown.
type paceMsg struct{}

// batch applies b and refreshes now or at the end of the Pace.
func (m Model) batch(b model.Batch) (tea.Model, tea.Cmd) {
	// A batch that changed nothing visible (and left the watch as it was)
	// costs no refresh, and the frame drawn last is still the screen.
	if !m.s.Src.Apply(b) && m.s.Src.Watch() == m.s.Watch {
		m.keepFrame = true
		return m, nil
	}
	p := m.pace
	turned := p.turned(m.s.Src, b) // first, so that every batch keeps the flags current
	wait := p.every - time.Since(p.last)
	if p.every <= 0 || wait <= 0 || turned || m.s.Src.Watch() != m.s.Watch {
		m.refresh()
		return m, nil
	}
	m.keepFrame = true
	if p.due {
		return m, nil
	}
	p.due = true
	return m, tea.Tick(wait, func(time.Time) tea.Msg { return paceMsg{} })
}

// turned reports whether b finished, failed, paused or resumed a
// deployment. Only a batch with a Deployment in it can: the pods' churn
// costs nothing here.
func (p *pacer) turned(src Source, b model.Batch) bool {
	if p.every <= 0 || !b.HasDeployment() {
		return false
	}
	now := make(map[string]deploymentState, len(p.states))
	turned := false
	for _, d := range src.Deployments() {
		key := d.Namespace + "/" + d.Name
		s := deploymentState{done: d.Done, failed: d.Failed, paused: d.Paused}
		if was, ok := p.states[key]; ok && was != s {
			turned = true
		}
		now[key] = s
	}
	p.states = now
	return turned
}

// frame is the screen as last drawn. Bubble Tea asks for View after every
// message; after a batch that was not shown yet, nothing on the screen has
// changed, and drawing it again would cost as much as drawing a new one.
type frame struct {
	w, h    int
	content string
}

// drawn is Render, or the frame drawn last while nothing on it changed.
func (m Model) drawn() string {
	f := m.frame
	if f == nil {
		return m.Render()
	}
	if w, h := m.size(); !m.keepFrame || f.w != w || f.h != h || f.content == "" {
		*f = frame{w: w, h: h, content: m.Render()}
	}
	return f.content
}
