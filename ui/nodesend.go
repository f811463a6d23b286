package ui

import "rollscope/model/action"

// request is what the dialog asks for, as the runner sends it.
func (d *nodeDialog) request() action.Request {
	switch d.kind {
	case nodeCordon:
		return action.Request{Action: action.Cordon, Nodes: d.nodes}
	case nodeUncordon:
		return action.Request{Action: action.Uncordon, Nodes: d.nodes}
	case nodeDrain:
		return action.Request{Action: action.Drain, Nodes: d.nodes, Drain: d.drain}
	case nodeRoll:
		return action.Request{Action: action.RollGroup, Name: d.group, Roll: d.roll}
	}
	return action.Request{Action: action.StopRoll, Name: d.group}
}
