package cluster

import (
	"time"

	"rollscope/model"
)

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
	// FailsAt is when the roll fails unless the cluster validates first,
	// while its validation fails (as the roll wrote it on a node); zero
	// otherwise.
	FailsAt time.Time
	// What the roll waits for, when it says (rollwaits.go).
	Waits
}

// Active reports whether the roll still has work to do.
func (g GroupRoll) Active() bool {
	return model.RollActive(g.State)
}

// GroupRolls gathers the rolls of the rows' groups, in group order. A group
// whose nodes disagree (a node written before the others) shows the state
// most of its nodes carry, an active one on a tie.
func GroupRolls(rows []NodeRow) []GroupRoll {
	var out []GroupRoll
	var votes []stateVotes // votes[i] are out[i]'s
	index := map[string]int{}
	cur := -1 // out's index of the last row's group: rows come by group
	for _, r := range rows {
		roll := r.Progress.Roll
		if roll.State == "" {
			continue
		}
		if cur < 0 || out[cur].Group != r.Group {
			i, ok := index[r.Group]
			if !ok {
				i = len(out)
				index[r.Group] = i
				out = append(out, GroupRoll{Group: r.Group, ID: roll.ID, Stepping: roll.Stepping, Count: roll.Count, Size: roll.Size, Role: roll.Role})
				votes = append(votes, nil)
			}
			cur = i
		}
		g := &out[cur]
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
		if g.FailsAt.IsZero() {
			g.FailsAt = roll.FailsAt
		}
		votes[cur].add(roll.State)
	}
	for i := range out {
		out[i].State = votes[i].winner()
	}
	setWaits(out, rows)
	return out
}

// stateVotes counts how many of a group's nodes carry each roll state: a
// handful of states, so a slice, not a map looked up once per node.
type stateVotes []stateVote

type stateVote struct {
	state string
	n     int
}

func (v *stateVotes) add(state string) {
	for i := range *v {
		if (*v)[i].state == state {
			(*v)[i].n++
			return
		}
	}
	*v = append(*v, stateVote{state, 1})
}

// winner is the state most nodes carry; on a tie an active one, then the
// first by name.
func (v stateVotes) winner() string {
	var best stateVote
	for _, c := range v {
		if best.state == "" || beats(c, best) {
			best = c
		}
	}
	return best.state
}

func beats(a, b stateVote) bool {
	if a.n != b.n {
		return a.n > b.n
	}
	aa, ab := model.RollActive(a.state), model.RollActive(b.state)
	if aa != ab {
		return aa
	}
	return a.state < b.state
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
