package ui

import tea "charm.land/bubbletea/v2"

// rehearseHere forks a replay (F5): the console quits with a Switch that
// asks for an embedded rehearsal from the moment shown, on the same scope,
// and the command starts it (internal/flightrec). The replay's clock is
// paused first, so that the moment forked is the one on the screen.
func (m *Model) rehearseHere() tea.Cmd {
	if m.replay == nil {
		return nil
	}
	m.replay.SetPaused(true)
	ns := m.scope.namespace
	m.scope.switchTo = &Switch{Namespace: ns, AllNamespaces: m.scope.watchAll, Rehearse: true}
	return tea.Quit
}
