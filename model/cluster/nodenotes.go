package cluster

import (
	"slices"
	"time"

	"rollscope/model"
)

// NodeProgressNotes remembers the drain and roll states a timeline has been
// told about, so that each change becomes one line there. The zero value
// has been told nothing.
type NodeProgressNotes struct {
	drains map[string]string // node → drain state
	rolls  map[string]string // group → roll state
}

// drainStates are the states the drain controller writes; any other value
// was written by another tool and says nothing to note.
var drainStates = map[string]bool{model.DrainDraining: true, model.DrainBlocked: true, model.DrainDrained: true, model.DrainFailed: true}

// Changes are the timeline lines for every drain and roll whose state
// changed since the last call, at time at: drains in rows' order, then
// rolls by group, then the rolls that ended because their last node was
// replaced. The first call notes every drain and roll found, so a console
// started mid-roll says what it found. rows are the nodes as Cluster.Nodes
// lists them.
func (n *NodeProgressNotes) Changes(rows []NodeRow, at time.Time) []TimelineEntry {
	if n.drains == nil {
		n.drains, n.rolls = map[string]string{}, map[string]string{}
	}
	var out []TimelineEntry
	add := func(object, message string, warning bool) {
		out = append(out, TimelineEntry{Time: at, Kind: TimelineAction, Object: object, Message: message, Warning: warning})
	}
	// Only nodes with a drain state are remembered, and looked up: a
	// refresh of thousands of nodes, none draining, costs one pass.
	var seen map[string]bool // the remembered nodes still listed
	for _, node := range rows {
		state := node.Drain
		if state == "" {
			if len(n.drains) > 0 {
				delete(n.drains, node.Name)
			}
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[node.Name] = true
		if state == n.drains[node.Name] {
			continue
		}
		n.drains[node.Name] = state
		if !drainStates[state] {
			continue
		}
		msg := "drain " + state
		switch {
		case state == model.DrainBlocked && len(node.Progress.Blocked) > 0:
			msg += ": " + node.Progress.Blocked[0]
		case node.Progress.DrainMessage != "" && state != model.DrainDraining:
			msg += ": " + node.Progress.DrainMessage
		}
		add("node/"+node.Name, msg, state == model.DrainBlocked || state == model.DrainFailed)
	}
	for name := range n.drains {
		if !seen[name] {
			delete(n.drains, name)
		}
	}
	groups := map[string]bool{}
	for _, g := range GroupRolls(rows) {
		groups[g.Group] = true
		if g.State == n.rolls[g.Group] {
			continue
		}
		n.rolls[g.Group] = g.State
		msg := "roll " + g.State
		if g.Message != "" {
			msg += ": " + g.Message
		}
		add("nodegroup/"+g.Group, msg, g.State == model.RollFailed)
	}
	var ended []string
	for g := range n.rolls {
		if !groups[g] {
			ended = append(ended, g)
		}
	}
	slices.Sort(ended)
	for _, g := range ended {
		// The last node of the roll was replaced: the roll is over.
		delete(n.rolls, g)
		add("nodegroup/"+g, "roll done: every node it replaced is gone", false)
	}
	return out
}
