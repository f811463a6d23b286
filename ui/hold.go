package ui

import tea "charm.land/bubbletea/v2"

// writer is a dialog that asks before it changes the cluster.
type writer interface{ Writes() bool }

// Update is update, then the embedded clock held while a dialog that
// writes is open: a plan, a forecast and the y that sends them must all be
// about the same cluster, and on the embedded one the operator reading the
// plan is what the clock waits for. A clock the operator paused stays
// theirs; a live cluster's is not ours to hold (its dialogs re-check the
// plan on y instead). Then the watch is told whose pods what is now shown
// needs (pods.go), before the page opened reads them.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	if nm, ok := next.(Model); ok {
		nm.holdClock()
		nm.askPods()
		return nm, cmd
	}
	return next, cmd
}

// holdClock holds the clock while the open overlay or a page's question
// writes, and lets it go after.
func (m *Model) holdClock() {
	if m.embedded == nil {
		return
	}
	want := false
	if w, ok := m.overlay.(writer); ok && w.Writes() {
		want = true
	}
	for _, p := range m.pages {
		want = want || p.Writes()
	}
	switch {
	case want && !m.s.ClockHeld && !m.embedded.Paused():
		m.embedded.SetPaused(true)
		m.s.ClockHeld = true
	case !want && m.s.ClockHeld:
		m.embedded.SetPaused(false)
		m.s.ClockHeld = false
	default:
		return
	}
	// The header's clock shows where it stopped, not the last tick.
	m.refresh()
}
