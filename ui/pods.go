package ui

import (
	"rollscope/model/cluster"
	"rollscope/ui/overlays/help"
	"rollscope/ui/screen"
)

// askPods tells each cluster's watch whose pods the screen needs. The
// fleet of every namespace, shown alone (or under the help), needs the
// pods its rows read (cluster.Cluster's PodsNeeded) and those of the
// selected row's namespace, whose blocker line is on the screen; every
// other page, pane and dialog reads pods freely — the nodes' counts, a
// forecast, a pod's detail — and asks for every pod. The watch only
// widens, so asking again costs nothing.
func (m *Model) askPods() {
	fleetAlone := m.home != nil && m.top() == screen.Page(m.home)
	if _, isHelp := m.overlay.(*help.Help); m.overlay != nil && !isHelp {
		fleetAlone = false
	}
	var selected cluster.FleetRow
	hasSelected := false
	if fleetAlone {
		selected, hasSelected = m.home.Selected()
	}
	for _, mem := range m.s.Members {
		if mem.Pods == nil {
			continue
		}
		need, ok := mem.Src.(screen.PodsNeeder)
		if !fleetAlone || !ok {
			mem.Pods.Want(true)
			continue
		}
		all, namespaces := need.PodsNeeded()
		if hasSelected && (selected.Cluster == mem.Context || selected.Cluster == "" && len(m.s.Members) == 1) {
			namespaces = append(namespaces, selected.Namespace)
		}
		mem.Pods.Want(all, namespaces...)
	}
}
