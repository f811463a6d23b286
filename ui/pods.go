package ui

import (
	"rollscope/ui/overlays/help"
	"rollscope/ui/overlays/picker"
	"rollscope/ui/screen"
)

// askPods tells each cluster's watch whose pods the screen needs. The
// fleet of every namespace, shown alone (or under the help or the command
// line, which read no pods), needs only the pods its rows read
// (cluster.Cluster's PodsNeeded); a row whose pods are not watched says
// kubectl's sentence on the why line. Every other page, pane and dialog
// reads pods freely — the nodes' counts, a forecast, a pod's detail — and
// asks for every pod. The watch only widens, so asking again costs
// nothing; the selected row's namespace is not asked for, as moving the
// cursor down the fleet would soon have asked for all.
func (m *Model) askPods() {
	fleetAlone := m.fleetAlone()
	awaited := false
	for _, mem := range m.s.Members {
		if mem.Pods == nil {
			continue
		}
		need, ok := mem.Src.(screen.PodsNeeder)
		if !fleetAlone || !ok {
			mem.Pods.Want(true)
			if ws := mem.Src.Watch(); ok && ws.PodsNarrowed && ws.Synced {
				// The page shown reads pods the picture does not hold
				// yet: it says so from this frame on.
				need.AwaitAllPods()
				awaited = true
			}
			continue
		}
		all, namespaces := need.PodsNeeded()
		mem.Pods.Want(all, namespaces...)
	}
	if awaited {
		m.refresh()
	}
}

// fleetAlone reports whether the screen shows the fleet and nothing over it
// but the help or the command line, which read nothing of the clusters.
func (m Model) fleetAlone() bool {
	if m.home == nil || m.top() != screen.Page(m.home) {
		return false
	}
	switch m.overlay.(type) {
	case nil, *help.Help, *picker.Picker:
		return true
	}
	return false
}
