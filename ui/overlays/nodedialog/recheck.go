package nodedialog

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/screen"
)

// basis is what a node dialog's plan was made from, as the console sees
// the nodes. A live cluster moves while the operator reads the plan (the
// embedded one is held): y first checks that it still stands. A drain's
// nodes are checked against a fresh preview instead (rechecked), which
// reads the API server itself.
type basis struct {
	// nodes are the cordon and drain state of a cordon's or uncordon's
	// nodes.
	nodes map[string]nodeState
	// members are a roll's group's nodes, by name, and whether each is up
	// to date.
	members map[string]bool
	// roll is the state of the group's roll, "" for none.
	roll string
}

type nodeState struct {
	cordoned bool
	drain    string
}

// basisNow reads what the dialog's plan rests on from the nodes as the
// console sees them now.
func (d *Dialog) basisNow() basis {
	var b basis
	switch d.kind {
	case action.Cordon, action.Uncordon:
		b.nodes = map[string]nodeState{}
		for _, n := range d.s.Nodes {
			if slices.Contains(d.nodes, n.Name) {
				b.nodes[n.Name] = nodeState{cordoned: !n.Schedulable, drain: n.Drain}
			}
		}
	case action.RollGroup, action.StopRoll:
		b.members = map[string]bool{}
		for _, n := range d.s.Nodes {
			if n.Group == d.group {
				b.members[n.Name] = n.UpToDate
			}
		}
		if g, ok := cluster.RollOf(d.s.Nodes, d.group); ok {
			b.roll = g.State
		}
	}
	return b
}

// changes says in the operator's words what differs between b and now.
// Nodes that are gone are left to the dialog's own warning.
func (d *Dialog) changes(b, now basis) []string {
	var out []string
	for _, name := range d.nodes {
		was, ok1 := b.nodes[name]
		is, ok2 := now.nodes[name]
		if ok1 && ok2 {
			out = append(out, stateChanges(name, was.cordoned, is.cordoned, was.drain, is.drain)...)
		}
	}
	if d.kind == action.RollGroup {
		for _, name := range sortedKeys(now.members) {
			upToDate := now.members[name]
			was, ok := b.members[name]
			switch {
			case !ok:
				out = append(out, "node "+name+" joined group "+d.group)
			case was != upToDate && upToDate:
				out = append(out, "node "+name+" is now up to date")
			case was != upToDate:
				out = append(out, "node "+name+" is now outdated")
			}
		}
		for _, name := range sortedKeys(b.members) {
			if _, ok := now.members[name]; !ok {
				out = append(out, "node "+name+" left group "+d.group)
			}
		}
	}
	switch {
	case b.roll == now.roll:
	case now.roll == "":
		out = append(out, "the roll of group "+d.group+" has ended")
	case b.roll == "":
		out = append(out, "a roll of group "+d.group+" is now "+now.roll)
	default:
		out = append(out, fmt.Sprintf("the roll of group %s went from %s to %s", d.group, b.roll, now.roll))
	}
	return out
}

// stateChanges says how a node's cordon and drain state moved.
func stateChanges(node string, wasCordoned, isCordoned bool, was, is string) []string {
	var out []string
	if wasCordoned != isCordoned {
		if isCordoned {
			out = append(out, "node "+node+" was cordoned")
		} else {
			out = append(out, "node "+node+" was uncordoned")
		}
	}
	switch {
	case was == is:
	case is == "":
		out = append(out, "the "+was+" drain of node "+node+" was cleared")
	case was == "":
		out = append(out, "a drain of node "+node+" is now "+is)
	default:
		out = append(out, fmt.Sprintf("the drain of node %s went from %s to %s", node, was, is))
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// confirm is y at the confirmation: the request goes to the runner only if
// what its plan was made from still stands. A drain first previews its
// nodes again, from the API server (rechecked sends it).
func (d *Dialog) confirm() (screen.Overlay, tea.Cmd) {
	if d.rechecking {
		return d, nil
	}
	if d.s.StillBusy() || len(d.gone()) > 0 {
		return d.send()
	}
	if d.kind == action.Drain {
		return d, d.recheckDrain()
	}
	// Stopping a roll is the brake: it goes while the roll is still
	// active, whatever step the roll moved to meanwhile.
	g, rolling := cluster.RollOf(d.s.Nodes, d.group)
	rolling = rolling && g.Active()
	now := d.basisNow()
	changed := d.changes(d.basis, now)
	if len(changed) == 0 || d.kind == action.StopRoll && rolling {
		return d.send()
	}
	d.basis = now
	d.moved = "nothing sent: " + strings.Join(changed, "; ") + " since this was shown"
	switch d.kind {
	case action.RollGroup:
		d.replan()
	case action.StopRoll:
		d.refuse("no roll of group " + d.group + " is in progress to stop")
	default:
		d.moved += " — y sends it to the nodes as they are now"
	}
	return d, nil
}

// replan makes a roll's plan again from its group as it is now, or says
// why there is nothing to roll any more.
func (d *Dialog) replan() {
	if g, ok := cluster.RollOf(d.s.Nodes, d.group); ok && g.Active() {
		d.refuse("the roll of group " + d.group + " is already " + g.State)
		return
	}
	d.roll.Size, d.roll.Outdated = GroupSize(d.s.Nodes, d.group)
	if d.roll.Outdated == 0 {
		d.refuse("every node of group " + d.group + " is up to date: nothing to roll")
		return
	}
	plan, err := d.s.Actions.PlanRoll(d.group, d.roll)
	if err != nil {
		d.refuse(err.Error())
		return
	}
	d.plan = plan
	d.moved += " — read the plan again; y sends it"
}

// refuse ends the dialog's chance to send: y only closes it.
func (d *Dialog) refuse(why string) {
	d.refused = true
	d.moved += " — " + why
}

// GroupSize counts group's nodes and how many of them are outdated.
func GroupSize(nodes []cluster.NodeRow, group string) (size, outdated int) {
	for _, n := range nodes {
		if n.Group == group {
			size++
			if !n.UpToDate {
				outdated++
			}
		}
	}
	return size, outdated
}
