package nodes

import "rollscope/model"

// progressNotes remembers the drain and roll states the timeline has been
// told about, so each change is one line there.
type progressNotes struct {
	drains map[string]string // node → drain state
	rolls  map[string]string // group → roll state
}

// drainStates are the states the drain controller writes.
var drainStates = map[string]bool{"draining": true, "blocked": true, "drained": true, "failed": true}

// noteProgress adds a timeline line for every drain and roll whose state
// changed since the last refresh, including the first: a console started
// mid-roll says what it found.
func (p *Pane) noteProgress() {
	n := &p.notes
	if n.drains == nil {
		n.drains, n.rolls = map[string]string{}, map[string]string{}
	}
	add := func(object, message string, warning bool) {
		p.s.Src.AddAction(p.s.Namespace, p.s.Deployment, model.TimelineEntry{
			Time: p.s.Now, Object: object, Message: message, Warning: warning})
	}
	seen := map[string]bool{}
	for _, node := range p.s.Nodes {
		seen[node.Name] = true
		state := node.Drain
		if state == n.drains[node.Name] {
			continue
		}
		n.drains[node.Name] = state
		if !drainStates[state] {
			// Nothing to say, or a state another tool wrote.
			continue
		}
		msg := "drain " + state
		switch {
		case state == "blocked" && len(node.Progress.Blocked) > 0:
			msg += ": " + node.Progress.Blocked[0]
		case node.Progress.DrainMessage != "" && state != "draining":
			msg += ": " + node.Progress.DrainMessage
		}
		add("node/"+node.Name, msg, state == "blocked" || state == "failed")
	}
	for name := range n.drains {
		if !seen[name] {
			delete(n.drains, name)
		}
	}
	groups := map[string]bool{}
	for _, g := range p.rolls {
		groups[g.Group] = true
		if g.State == n.rolls[g.Group] {
			continue
		}
		n.rolls[g.Group] = g.State
		msg := "roll " + g.State
		if g.Message != "" {
			msg += ": " + g.Message
		}
		add("nodegroup/"+g.Group, msg, g.State == "failed")
	}
	for g := range n.rolls {
		if !groups[g] {
			// The last node of the roll was replaced: the roll is over.
			delete(n.rolls, g)
			add("nodegroup/"+g, "roll done: every node it replaced is gone", false)
		}
	}
}
