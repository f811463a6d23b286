// Package nodes is the Nodes pane: the nodes with their drains and
// node-group rolls, the marks c, C and d act on, and the node keys, which
// send or open the node dialogs for the selection.
package nodes

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// Pane lists the nodes: readiness, cordons, taints, pods, whether they
// run the current node version, any drain or roll in progress, and the
// marks c, C and d act on. Above the list, one line per node-group roll;
// below it, why the selected node's drain waits or failed.
type Pane struct {
	s    *screen.Screen
	w, h int
	rows draw.List
	// marked are the nodes m marked, by name.
	marked map[string]bool
	notes  cluster.NodeProgressNotes
	// rolls are the group rolls of the nodes, gathered once per refresh,
	// and short the Deployment each roll between nodes waits to see
	// available, by group.
	rolls []cluster.GroupRoll
	short map[string]cluster.DeploymentSummary
	// full is set by enter: the roll lines and the selected node's detail
	// are shown whole, as many lines as they take, instead of cut.
	full bool
}

// New is the pane over s, with no node marked.
func New(s *screen.Screen) *Pane { return &Pane{s: s, marked: map[string]bool{}} }

// nodeColumns go, when the pane is narrow, least useful first (Drop): taints,
// group, pods, version, roll, sched, drain; the name and readiness stay.
// Enter shows every field of the selected node.
var nodeColumns = []draw.Column{
	{Title: "NAME", Width: 0, Min: 10, Cut: draw.CutMiddle}, {Title: "GROUP", Width: 10, Drop: 6}, {Title: "READY", Width: 8},
	{Title: "SCHED", Width: 8, Drop: 2}, {Title: "PODS", Width: 5, Right: true, Drop: 5}, {Title: "VERSION", Width: 8, Drop: 4},
	{Title: "DRAIN", Width: 14, Drop: 1}, {Title: "ROLL", Width: 8, Drop: 3}, {Title: "TAINTS", Width: 0, Min: 6, Drop: 7},
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h; p.fitRows() }

// fitRows leaves room for the roll lines above the list and the detail
// lines below it.
func (p *Pane) fitRows() {
	p.rows.Height = max(p.h-1-len(p.rollLines())-len(p.detailLines()), 1)
}

func (p *Pane) KeyMap() help.KeyMap {
	k := p.s.Keys
	a := k.Action
	switch g, ok := p.SelectedRoll(); {
	case ok && g.Active():
		return keys.Pane{k.Up, k.Down, a(action.NextStep), a(action.PauseRoll), a(action.StopRoll), p.fullKey()}
	case ok && model.RollResumable(g.State):
		return keys.Pane{k.Up, k.Down, a(action.NextStep), k.MarkNode, a(action.Cordon), a(action.Drain), p.fullKey()}
	}
	return keys.Pane{k.Up, k.Down, k.MarkNode, a(action.Cordon), a(action.Drain), a(action.RollGroup), p.fullKey()}
}

// fullKey is enter: the roll lines and the node detail whole, or cut
// again.
func (p *Pane) fullKey() key.Binding {
	sel := p.s.Keys.Select
	if p.full {
		sel.SetHelp(sel.Help().Key, "cut detail")
	} else {
		sel.SetHelp(sel.Help().Key, "full detail")
	}
	return sel
}

func (p *Pane) Update(msg tea.Msg) (screen.Pane, tea.Cmd) {
	nodes := p.s.Nodes
	keyAt := func(i int) string { return nodes[i].Name }
	switch msg := msg.(type) {
	case screen.Focus:
		p.rows.Focused = bool(msg)
		return p, nil
	case screen.Sent:
		// What was marked has been acted on.
		if on := msg.Request.Spec().On; msg.Err == nil && (on == action.OnNode || on == action.OnNodeGroup) {
			clear(p.marked)
		}
		return p, nil
	case screen.Refreshed:
		p.rolls = cluster.GroupRolls(nodes)
		p.findShortDeployments()
		for _, e := range p.notes.Changes(p.s.Nodes, p.s.Now) {
			p.s.Src.AddAction(p.s.Namespace, p.s.Deployment, e)
		}
		p.dropGoneMarks()
		p.fitRows()
		p.rows.Follow(len(nodes), keyAt)
		return p, nil
	case tea.KeyPressMsg:
		if key.Matches(msg, p.s.Keys.Select) {
			p.full = !p.full
			p.fitRows()
			return p, nil
		}
		if key.Matches(msg, p.s.Keys.MarkNode) && len(nodes) > 0 {
			p.rows.Clamp(len(nodes))
			name := nodes[p.rows.Cursor].Name
			if p.marked[name] {
				delete(p.marked, name)
			} else {
				p.marked[name] = true
			}
			// Marking moves on, so a run of nodes is marked by holding m.
			p.rows.Move(tea.KeyPressMsg{Code: tea.KeyDown}, p.s.Keys, len(nodes), keyAt)
			return p, nil
		}
	}
	p.rows.Move(msg, p.s.Keys, len(nodes), keyAt)
	p.fitRows()
	return p, nil
}

// dropGoneMarks forgets the marks of nodes that are no longer listed.
func (p *Pane) dropGoneMarks() {
	for name := range p.marked {
		if !slices.ContainsFunc(p.s.Nodes, func(n cluster.NodeRow) bool { return n.Name == name }) {
			delete(p.marked, name)
		}
	}
}

// Selected is the node under the cursor.
func (p *Pane) Selected() (cluster.NodeRow, bool) {
	nodes := p.s.Nodes
	if len(nodes) == 0 {
		return cluster.NodeRow{}, false
	}
	p.rows.Clamp(len(nodes))
	return nodes[p.rows.Cursor], true
}

// Targets are the marked nodes, or the node under the cursor when none is
// marked: what c, C and d act on.
func (p *Pane) Targets() []string {
	var out []string
	for _, n := range p.s.Nodes {
		if p.marked[n.Name] {
			out = append(out, n.Name)
		}
	}
	if len(out) == 0 {
		if n, ok := p.Selected(); ok {
			out = append(out, n.Name)
		}
	}
	return out
}

// SelectedRoll is the roll of the selected node's group, if it has one.
func (p *Pane) SelectedRoll() (cluster.GroupRoll, bool) {
	n, ok := p.Selected()
	if !ok || n.Group == "" {
		return cluster.GroupRoll{}, false
	}
	for _, g := range p.rolls {
		if g.Group == n.Group {
			return g, true
		}
	}
	return cluster.GroupRoll{}, false
}

func (p *Pane) View() string {
	if p.h <= 0 {
		return ""
	}
	p.fitRows()
	nodes := p.s.Nodes
	lines := append(p.rollLines(), p.rows.Table(p.s.Paints, nodeColumns, p.w, len(nodes), p.empty(), func(i int, widths []int, w int, sel bool) string {
		return p.nodeRow(nodes[i], widths, w, sel)
	})...)
	if len(nodes) == 0 {
		return strings.Join(lines, "\n")
	}
	if detail := p.detailLines(); len(detail) > 0 {
		for len(lines) < p.h-len(detail) {
			lines = append(lines, strings.Repeat(" ", p.w))
		}
		lines = append(lines, detail...)
	}
	if len(lines) > p.h {
		lines = lines[:p.h]
	}
	return strings.Join(lines, "\n")
}

// empty is what the pane says with no node to list: a user whose role may
// not list nodes sees that, not a cluster without nodes.
func (p *Pane) empty() string {
	if p.s.Watch.MayNotList("Node") {
		return "you may not list nodes: your role does not allow it (the rest of the screen is live)"
	}
	return "no nodes"
}

// rollLines are one line per group roll: its state, how far it is, what
// the keys do next, and its message.
func (p *Pane) rollLines() []string {
	var out []string
	for _, g := range p.rolls {
		out = append(out, p.rollLine(g)...)
	}
	// The pane keeps at least its header and one node row.
	if len(out) > p.h-2 {
		out = out[:max(p.h-2, 0)]
	}
	return out
}

// lineCap is how many lines a roll's sentence or the node detail may take:
// its own bound, or as many as the pane has once enter asked for the
// full text.
func (p *Pane) lineCap(n int) int {
	if p.full {
		return max(p.h-2, 1)
	}
	return n
}

// findShortDeployments reads the Deployments only for a roll that waits
// between nodes with its nodes all there: a refresh of a large fleet would
// otherwise summarise every Deployment for nothing.
func (p *Pane) findShortDeployments() {
	clear(p.short)
	var deps []cluster.DeploymentSummary
	for _, g := range p.rolls {
		if !g.ChecksDeployments() {
			continue
		}
		if deps == nil {
			deps = p.s.Src.Deployments()
		}
		if d, ok := g.ShortDeployment(deps); ok {
			if p.short == nil {
				p.short = map[string]cluster.DeploymentSummary{}
			}
			p.short[g.Group] = d
		}
	}
}

// waitWords say what g waits for before it goes on, and when it fails
// unless the cluster validates first: the deadline the roll wrote while its
// validation fails — then the roll waits for the cluster to validate even
// when what holds it is not among what the console watches (a Deployment
// of another namespace).
func (p *Pane) waitWords(g cluster.GroupRoll) string {
	waits := ""
	switch {
	case g.AwaitsRoll != "":
		waits = "the roll of group " + g.AwaitsRoll
	case g.AwaitsReady != "":
		waits = g.AwaitsReady + " to be Ready"
	case g.AwaitsNodes > 0:
		waits = model.Plural(g.AwaitsNodes, "more Ready node") + " (" + draw.Itoa(g.Ready) + " of " + draw.Itoa(g.Size) + ")"
	default:
		if d, ok := p.short[g.Group]; ok {
			waits = "deployment " + d.Namespace + "/" + d.Name + " to be available (" +
				draw.Itoa(int(d.Available)) + " of " + draw.Itoa(int(d.Replicas)) + ")"
		}
	}
	failing := !g.FailsAt.IsZero() && g.Active() && p.s.Now.Before(g.FailsAt)
	if failing && waits == "" {
		waits = "the cluster to validate"
	}
	out := ""
	if waits != "" {
		out = " · waits for " + waits
	}
	if failing {
		// Age counts from its second time to its first: here, from now
		// to the deadline.
		out += " · fails in " + draw.Age(g.FailsAt, p.s.Now)
	}
	return out
}

func (p *Pane) rollLine(g cluster.GroupRoll) []string {
	text := "roll " + g.Group + ": " + g.State
	if g.Stepping {
		text += " · stepped"
	}
	if g.Count > 0 {
		text += " · " + draw.Itoa(g.Count-g.Left) + "/" + draw.Itoa(g.Count) + " replaced"
	}
	if g.Draining > 0 {
		text += " · " + draw.Itoa(g.Draining) + " draining"
	}
	if g.Drained > 0 {
		text += " · " + draw.Itoa(g.Drained) + " drained"
	}
	width, most := p.w-3, p.lineCap(2)
	waits, keys := p.waitWords(g), rollKeys(g.State)
	if waits != "" && keys != "" && len(draw.Wrap(text+waits+keys, width)) > most {
		// Too narrow for both: what to press comes first, and the wait
		// words are what a cut shortens (enter shows them whole).
		text += keys + " — " + strings.TrimPrefix(waits, " · ")
	} else {
		text += waits + keys
	}
	if g.Message != "" {
		text += " — " + g.Message
	}
	paint := p.s.Paints.Accent
	switch g.State {
	case model.RollFailed:
		paint = p.s.Paints.Bad
	case model.RollStopped, model.RollPaused, model.RollWaiting:
		paint = p.s.Paints.Warn
	case model.RollFinished:
		paint = p.s.Paints.OK
	}
	// Two lines at most (enter shows the rest): the state, what the roll
	// waits for and what to press next (before the wait words when both do
	// not fit) come before the message, and a cut ends in "…".
	lines := draw.WrapAtMost(text, width, most)
	out := make([]string, len(lines))
	for i, l := range lines {
		if i > 0 {
			l = "  " + l
		}
		out[i] = draw.Fit(paint.On(" "+l), p.w)
	}
	return out
}

// rollKeys say what the keys do to a roll in state.
func rollKeys(state string) string {
	switch state {
	case model.RollWaiting:
		return " — n next node · space pause · x stop"
	case model.RollPaused:
		return " — space or n resume · x stop"
	case model.RollRunning:
		return " — space pause · x stop"
	case model.RollStopped, model.RollFailed:
		return " — n resumes it (the outdated nodes left, same settings)"
	}
	return ""
}

// detailLines say why the selected node's drain waits or failed: the pods
// a PodDisruptionBudget holds back, with the disruptions it allows, or the
// drain's message.
func (p *Pane) detailLines() []string {
	n, ok := p.Selected()
	if !ok {
		return nil
	}
	var texts []string
	if p.full {
		texts = append(texts, p.nodeFields(n))
	}
	for _, b := range model.GroupBlocked(n.Progress.Blocked) {
		texts = append(texts, n.Name+" waits: "+b)
	}
	if m := n.Progress.DrainMessage; m != "" {
		texts = append(texts, n.Name+": "+m)
	}
	paint := p.s.Paints.Warn
	if n.Drain == model.DrainFailed {
		paint = p.s.Paints.Bad
	}
	// Wrapped, three lines at most (enter shows them whole; a cut ends in
	// "…"), and only when the list keeps room.
	var wrapped []string
	for _, t := range texts {
		for i, l := range draw.Wrap(t, p.w-3) {
			if i > 0 {
				l = "  " + l
			}
			wrapped = append(wrapped, l)
		}
	}
	most := maxDetailLines
	if p.full {
		most = max(p.h-3-len(p.rollLines()), 1)
	}
	if len(wrapped) > most {
		wrapped = wrapped[:most]
		wrapped[most-1] = strings.TrimRight(draw.Fit(wrapped[most-1]+" …", p.w-3), " ")
	}
	var out []string
	for _, l := range wrapped {
		out = append(out, draw.Fit(paint.On(" "+l), p.w))
	}
	if p.h-1-len(p.rollLines())-len(out) < 2 {
		return nil
	}
	return out
}

// podCount is a node's PODS cell: "-" while the picture holds only some
// namespaces' pods (a console of every namespace watching only the pods
// its page reads), where a count would leave out the others' pods on the
// node. Focusing the pane asks for every pod.
func (p *Pane) podCount(n cluster.NodeRow) string {
	if p.s.Watch.PodsNarrowed {
		return "-"
	}
	return draw.Itoa(n.Pods)
}

// nodeFields is every column of a node in one sentence, for the detail
// enter shows: what a narrow pane left out.
func (p *Pane) nodeFields(n cluster.NodeRow) string {
	ready, version := nodeWords(n)
	sched := "schedulable"
	if !n.Schedulable {
		sched = "cordoned"
	}
	pods := model.Plural(n.Pods, "pod")
	if p.s.Watch.PodsNarrowed {
		pods = "pods not counted yet"
	}
	return n.Name + ": group " + draw.OrDash(n.Group) + " · " + ready + " · " + sched + " · " + pods +
		" · version " + version + " · drain " + drainText(n) + " · roll " + rollText(n) + " · taints " +
		draw.OrDash(strings.Join(n.Taints, ","))
}

// nodeWords are a node's READY and VERSION words, the same in its row and
// its detail.
func nodeWords(n cluster.NodeRow) (ready, version string) {
	ready, version = "Ready", "current"
	if !n.Ready {
		ready = "NotReady"
	}
	if !n.UpToDate {
		version = "outdated"
	}
	return ready, version
}

// maxDetailLines bounds the lines below the node list.
const maxDetailLines = 3

// drainText is the DRAIN cell: the drain's state and, while it runs, the
// pods it still waits for.
func drainText(n cluster.NodeRow) string {
	d := n.Drain
	if d == "" {
		return "-"
	}
	if pr := n.Progress; pr.PodsLeftKnown && (d == model.DrainDraining || d == model.DrainBlocked) {
		d += " " + draw.Itoa(pr.PodsLeft) + " left"
	}
	return d
}

// rollText is the ROLL cell: the node's step in its group's roll.
func rollText(n cluster.NodeRow) string {
	r := n.Progress.Roll
	switch {
	case r.State == "":
		return "-"
	case r.Step != "":
		return r.Step
	case r.Active() && n.Detached:
		// Its replacement is launched; it is drained after the others.
		return "detached"
	case r.Active():
		// Waiting its turn: the roll picks the order, and several may wait.
		return "queued"
	}
	return r.State
}

func (p *Pane) nodeRow(n cluster.NodeRow, widths []int, w int, sel bool) string {
	ready, version := nodeWords(n)
	sched := "yes"
	if !n.Schedulable {
		sched = "cordoned"
	}
	taints := draw.OrDash(strings.Join(n.Taints, ","))
	// The table's gutter marks the cursor; a node marked for a drain or
	// roll says so before its name.
	name := n.Name
	if p.marked[n.Name] {
		name = "* " + n.Name
	}
	cells := []string{name, n.Group, ready, sched, p.podCount(n), version, drainText(n), rollText(n), taints}
	return p.rows.Render(n.Name, strings.Join(cells, "|"), w, sel, func() string {
		line := draw.Row(widths, nodeColumns, cells, w)
		switch {
		case sel:
			return p.s.Paints.Selected.On(line)
		case !n.Ready || n.Drain == model.DrainFailed:
			return p.s.Paints.Bad.On(line)
		case !n.Schedulable || n.Drain != "" || n.Progress.Roll.Active():
			return p.s.Paints.Warn.On(line)
		case !n.UpToDate:
			return p.s.Paints.Muted.On(line)
		}
		return line
	})
}
