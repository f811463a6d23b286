package cluster

import "rollscope/model"

// Waits is what a running roll waits for before it goes on, as far as
// the nodes and Deployments the console watches can tell. Each is true of
// the roll at the moment it is read: while it holds the roll starts no
// drain and detaches no node (engine/embedded's truth test holds each
// against the roll controller).
type Waits struct {
	// AwaitsRoll is the group whose roll this one waits for: the active
	// one first in kops' order (model.RollOrder of the groups' roles,
	// then their names).
	AwaitsRoll string
	// Validates is set for the first roll in that order while it runs and
	// drains nothing: between nodes, it goes on only once the cluster
	// validates as kops checks it. The checks, in order: every node Ready
	// (AwaitsReady, the first NotReady node by name — most often the
	// replacement the group launched, booting), the group back at its
	// size in Ready, attached, not drained nodes (AwaitsNodes more than
	// Ready), and every Deployment with all its pods available
	// (ShortDeployment).
	Validates   bool
	AwaitsReady string
	AwaitsNodes int
	Ready       int
}

// setWaits fills in what each of rolls waits for, from every node's row.
func setWaits(rolls []GroupRoll, rows []NodeRow) {
	first, known := firstRolling(rolls)
	if first == nil || !known {
		return
	}
	notReady := firstNotReady(rows)
	for i := range rolls {
		g := &rolls[i]
		switch {
		case g.State != model.RollRunning:
			continue
		case first.Group != g.Group:
			g.AwaitsRoll = first.Group
			continue
		case g.Draining > 0:
			continue
		}
		g.Validates = true
		g.Ready = groupCapacity(rows, g.Group)
		switch {
		case notReady != "":
			g.AwaitsReady = notReady
		case g.Ready < g.Size:
			g.AwaitsNodes = g.Size - g.Ready
		}
	}
}

// ShortDeployment is, for a roll that ChecksDeployments, the first
// Deployment of deps (sorted by namespace and name) with fewer pods
// available than it asks for: validation's last check, which holds the
// roll until it has them all (after a drain, while its evicted pods start
// again elsewhere). deps are the Deployments the console watches; the roll
// reads every namespace's, so one of another namespace may hold it too.
func (g GroupRoll) ShortDeployment(deps []DeploymentSummary) (DeploymentSummary, bool) {
	if !g.ChecksDeployments() {
		return DeploymentSummary{}, false
	}
	for _, d := range deps {
		if d.Available < d.Replicas {
			return d, true
		}
	}
	return DeploymentSummary{}, false
}

// ChecksDeployments reports whether the roll's validation has come to its
// last check: it Validates, with every node Ready and its group at its size.
func (w Waits) ChecksDeployments() bool {
	return w.Validates && w.AwaitsReady == "" && w.AwaitsNodes == 0
}

// firstRolling is the active roll that goes first in kops' order, the
// one no other waits for (nil when none is active); false when an active
// roll's role is not kops' (that roll fails, and the order is not known).
func firstRolling(rolls []GroupRoll) (*GroupRoll, bool) {
	var first *GroupRoll
	firstAt := 0
	for i := range rolls {
		g := &rolls[i]
		if !g.Active() {
			continue
		}
		at, ok := model.RollOrder(g.Role)
		if !ok {
			return nil, false
		}
		if first == nil || at < firstAt || (at == firstAt && g.Group < first.Group) {
			first, firstAt = g, at
		}
	}
	return first, true
}

// firstNotReady is the first node by name that is not Ready, as the roll's
// validation names it; "" when every node is Ready.
func firstNotReady(rows []NodeRow) string {
	first := ""
	for _, r := range rows {
		if !r.Ready && (first == "" || r.Name < first) {
			first = r.Name
		}
	}
	return first
}

// groupCapacity counts the group's nodes the roll's validation counts
// toward its size: Ready, attached, and not left drained by the roll.
func groupCapacity(rows []NodeRow, group string) int {
	n := 0
	for _, r := range rows {
		if r.Group == group && r.Ready && !r.Detached && r.Progress.Roll.Step != model.RollStepDrained {
			n++
		}
	}
	return n
}
