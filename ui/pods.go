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
// kubectl's sentence on the why line. A workload's page (screen.PodReader)
// reads its own namespace's pods, and the dialogs and details opened over
// it that workload's: its cluster is asked for that namespace's besides,
// so that opening one rollout on a cluster of 150,000 pods lists its
// namespace's, not the cluster's. The Nodes pane, focused, counts every
// pod on each node, and any other page asks for every pod. The watch only
// widens, so asking again costs nothing; the selected row's namespace is
// not asked for, as moving the cursor down the fleet would soon have asked
// for all.
func (m *Model) askPods() {
	fleetAlone := m.fleetAlone()
	namespace, readsAll := "", true
	if r, ok := m.top().(screen.PodReader); ok && !fleetAlone {
		namespace, readsAll = r.PodsRead()
		readsAll = readsAll || namespace == ""
	}
	awaited := false
	for _, mem := range m.s.Members {
		if mem.Pods == nil {
			continue
		}
		need, ok := mem.Src.(screen.PodsNeeder)
		if !ok {
			mem.Pods.Want(true)
			continue
		}
		all, namespaces := need.PodsNeeded()
		ws, awaits := mem.Src.Watch(), namespace
		listing := !fleetAlone && ws.PodsNarrowed && ws.Synced
		switch {
		case fleetAlone, mem.Context != m.s.Context && !readsAll:
			// The fleet's rows, here or in a cluster the page is not of.
			listing = false
		case !readsAll:
			namespaces = append(namespaces, namespace)
			listing = listing && !ws.HoldsPods(namespace)
		default:
			all, awaits = true, ""
		}
		mem.Pods.Want(all, namespaces...)
		if listing {
			// The page shown reads pods the picture does not hold
			// yet: it says so from this frame on.
			need.AwaitPods(awaits)
			awaited = true
		}
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
