package cluster

import (
	"time"

	"rollscope/model/kind"
)

// workloadKind is what the Cluster knows of a workload kind beyond the
// registry: how its fleet row is derived, and what more its rows read.
// Each kind's file adds its own (deployments.go, rc.go, statefulset.go,
// daemonset.go); the rest of the package asks this table.
type workloadKind struct {
	// held finds the kind's object k names when the Cluster keeps it
	// outside the workload store (Deployments, store.go); nil: the store.
	held func(c *Cluster, k fleetKey) (kind.Workload, bool)
	// row derives w's fleet row (k names it) at now; false when it has
	// none (the next controller of an RC update, which its old one's row
	// shows).
	row func(c *Cluster, k fleetKey, w kind.Workload, now time.Time) (fleetEntry, bool)
	// alsoMarks, when set, marks the rows read with k's besides its own
	// (an RC's rolling-update partner's).
	alsoMarks func(c *Cluster, k fleetKey)
	// summary, when set, is w's line in the workload picker's list.
	summary func(w kind.Workload) WorkloadSummary
}

// kinds are the workload kinds the Cluster shows, filled by their files.
var kinds = map[kind.Kind]workloadKind{}

// addKind adds k's entry to kinds; its files call it from a var block.
func addKind(k kind.Kind, wk workloadKind) bool {
	kinds[k] = wk
	return true
}

// find is the workload k (of kind wk) names, wherever the Cluster keeps it.
func (wk workloadKind) find(c *Cluster, k fleetKey) (kind.Workload, bool) {
	if wk.held != nil {
		return wk.held(c, k)
	}
	wl, ok := c.workloads.byKind[k.kind][objectKey(k.namespace, k.name)]
	return wl, ok
}

// markRow marks k's fleet row, and the rows its kind reads with it.
func (c *Cluster) markRow(k fleetKey) {
	c.fleetBook.mark(k)
	if also := kinds[k.kind].alsoMarks; also != nil {
		also(c, k)
	}
}
