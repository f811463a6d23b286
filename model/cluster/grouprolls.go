package cluster

import "rollscope/model"

// GroupRoll is a node group's roll as the console shows it, gathered from
// the nodes still in it.
type GroupRoll struct {
	Group, ID, State, Message string
	Stepping                  bool
	// Count is how many nodes the roll replaces; Left how many of them
	// are still in the group carrying the roll (not yet replaced), and
	// Draining and Drained how many of those are at that step.
	Count, Left, Draining, Drained int
	Size                           int    // attached nodes when the roll was asked
	Role                           string // the group's kops role
	// What the roll waits for, when it says (rollwaits.go).
	Waits
}

// Active reports whether the roll still has work to do.
func (g GroupRoll) Active() bool {
	return model.NodeRoll{State: g.State}.Active()
}

// GroupRolls gathers the rolls of the rows' groups, in group order. A group
// whose nodes disagree (a node written before the others) shows the state
// most of its nodes carry, an active one on a tie.
func GroupRolls(rows []NodeRow) []GroupRoll {
	var out []GroupRoll
	index := map[string]int{}
	votes := map[string]map[string]int{}
	for _, r := range rows {
		roll := r.Progress.Roll
		if roll.State == "" {
			continue
		}
		i, ok := index[r.Group]
		if !ok {
			i = len(out)
			index[r.Group] = i
			out = append(out, GroupRoll{Group: r.Group, ID: roll.ID, Stepping: roll.Stepping, Count: roll.Count, Size: roll.Size, Role: roll.Role})
			votes[r.Group] = map[string]int{}
		}
		g := &out[i]
		g.Left++
		switch roll.Step {
		case model.RollStepDraining:
			g.Draining++
		case model.RollStepDrained:
			g.Drained++
		}
		if g.Message == "" {
			g.Message = roll.Message
		}
		votes[r.Group][roll.State]++
	}
	for i := range out {
		v := votes[out[i].Group]
		best := ""
		for state := range v {
			if best == "" || preferState(v, state, best) {
				best = state
			}
		}
		out[i].State = best
	}
	setWaits(out, rows)
	return out
}

// preferState reports whether state a wins over b: more nodes carry it,
// or as many and it is active while b is not, or the first by name.
func preferState(votes map[string]int, a, b string) bool {
	if votes[a] != votes[b] {
		return votes[a] > votes[b]
	}
	aa, ab := (model.NodeRoll{State: a}).Active(), (model.NodeRoll{State: b}).Active()
	if aa != ab {
		return aa
	}
	return a < b
}

// RollOf is the roll of group, if its nodes carry one.
func RollOf(rows []NodeRow, group string) (GroupRoll, bool) {
	for _, g := range GroupRolls(rows) {
		if g.Group == group {
			return g, true
		}
	}
	return GroupRoll{}, false
}
