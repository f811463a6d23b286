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
	// AwaitsReady is the node the roll waits to see Ready before it goes
	// on, "" when it waits for none. Between nodes the roll validates the
	// cluster as kops does, and its first check is every node Ready: while
	// it runs, drains nothing and a node is NotReady (most often the
	// replacement it launched, booting), that node holds it. Left "" for a
	// roll that waits for another group's first (AwaitsRoll).
	AwaitsReady string
	// AwaitsNodes is, when every node is Ready, how many more Ready nodes
	// the group needs before the roll goes on (validation's next check:
	// the group back at Size, not counting nodes detached or left drained),
	// under the same conditions; Ready is how many it has.
	AwaitsNodes, Ready, Size int
	// AwaitsRoll is the group whose roll this running one waits for: the
	// active one first in kops' order (model.RollOrder) of the group's
	// Role and name.
	AwaitsRoll string
	Role       string
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
	first, known := firstRolling(out)
	if !known {
		return out
	}
	notReady := firstNotReady(rows)
	for i := range out {
		g := &out[i]
		switch {
		case g.State != model.RollRunning:
			continue
		case first != nil && first.Group != g.Group:
			g.AwaitsRoll = first.Group
			continue
		case g.Draining > 0:
			continue
		}
		g.Ready = groupCapacity(rows, g.Group)
		switch {
		case notReady != "":
			g.AwaitsReady = notReady
		case g.Ready < g.Size:
			g.AwaitsNodes = g.Size - g.Ready
		}
	}
	return out
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
