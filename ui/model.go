package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/overlays/help"
	"rollscope/ui/overlays/picker"
	"rollscope/ui/overlays/rolloutdialog"
	"rollscope/ui/pages/fleet"
	"rollscope/ui/pages/rollout"
	"rollscope/ui/screen"
)

// Model is the console's root: a stack of pages it routes keys, sizes and
// redraws to without knowing which page it holds, the overlay open over
// them, the global keys, the embedded clock, pacing, the frame drawn last
// and scope switching. Everything else belongs to the pages, panes and
// overlays.
type Model struct {
	s *screen.Screen
	// pages is the stack of pages, the one shown on top. pages[0], the
	// rollout page, is never popped: the RC and StatefulSet / DaemonSet
	// pages show over it, and the panes follow the Deployment shown even
	// while the fleet is on top.
	pages []screen.Page
	// home is the page the console starts on and esc and F go back to
	// (the fleet), nil when the source cannot list workloads.
	home screen.Home
	// route is the page a target shows (route.go).
	route func(screen.Target) screen.Page
	// keys0 are the keys before any cluster's refusals: a cluster that
	// joins later starts from them (Reached).
	keys0   *KeyMap
	width   int
	height  int
	context string

	embedded EmbeddedControls
	replay   ReplayControls
	// forkedAt is the recorded moment a rehearsal was forked from
	// (Options.ForkedAt); zero otherwise.
	forkedAt time.Time

	// overlay is drawn over the page and takes every key: the picker,
	// help or an action dialog; nil when none is open.
	overlay screen.Overlay
	// scope is what 0, :ns and :ctx switch between (switch.go).
	scope *scope
	// pace holds redraws back while the watch churns; frame is the screen
	// as last drawn, which View returns while look is the one it was drawn
	// for: nothing on the screen changed since (pace.go). flow measures the
	// speed the embedded clock keeps (clock.go).
	pace  *pacer
	flow  *clockFlow
	frame *frame
	memo  *draw.Memo
	look  uint64
}

// New builds the console. With no Cluster it shows an empty, waiting
// screen rather than failing.
func New(opts Options) Model {
	km := DefaultKeyMap()
	if opts.Keys != nil {
		km = opts.Keys.Clone()
	}
	if opts.Replay != nil {
		opts.Embedded = opts.Replay
	} else {
		const why = "only in a replay: rollscope replay FILE"
		km.Disable("prev-change", why)
		km.Disable("next-change", why)
		km.Disable("rehearse-here", why)
	}
	if opts.Embedded == nil {
		const why = "only in embedded mode: a live cluster's clock is not ours to change"
		km.Disable("faster", why)
		km.Disable("slower", why)
		km.Disable("pause-clock", why)
	}
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	theme := opts.Theme
	if theme.Name == "" && !theme.Plain {
		// No theme chosen: dark, or none at all when NO_COLOR asks.
		theme = themes.Auto(true)
	}
	styles := theme.Styles()
	// Every cluster is a member: one for a console of one cluster, and
	// its keys, source, actions and logs are the screen's.
	members := make([]screen.Member, 0, 1+len(opts.Also))
	pristine := km.Clone() // each cluster's keys start from it
	for i, o := range append(append([]Options{opts}, opts.Also...), opts.Unreachable...) {
		mk := &km
		if i > 0 {
			clone := pristine.Clone()
			mk = &clone
		}
		members = append(members, member(o, mk, opts.ReadOnly))
		if opts.Replay != nil {
			mk.Refuse(keys.Replay)
		}
	}
	context := members[0].Context
	s := &screen.Screen{
		Styles: styles, Paints: draw.NewPaints(styles), Clock: clock, Members: members,
		Namespace: opts.Namespace, Deployment: opts.Deployment,
		AssumeYes: opts.AssumeYes, ReadOnly: opts.ReadOnly, Record: opts.Record, RollDefaults: opts.RollDefaults,
	}
	s.Focus(context)
	src := s.Src
	m := Model{s: s, context: context, embedded: opts.Embedded, replay: opts.Replay, forkedAt: opts.ForkedAt, keys0: &pristine,
		pace: &pacer{every: opts.Pace, fleet: opts.FleetPace}, flow: &clockFlow{now: time.Now}, frame: &frame{}, memo: &draw.Memo{},
		scope: &scope{watchAll: opts.AllNamespaces, namespace: opts.Namespace, context: memberNames(members), contexts: opts.Contexts,
			scenario: opts.Embedded != nil}}
	if fleet.Answers(src) {
		ns := fleetNamespace(opts)
		start := !opts.ShowFleet && opts.Deployment == "" && opts.RC == "" && opts.Workload == ""
		m.home = fleet.New(s, ns, opts.ScopeNote, context, start)
	}
	base := rollout.New(s, context, m.home != nil)
	m.route = router{s: s, rollout: base}.page
	s.IsGlobal = globalKeys(&km, m.home != nil)
	m.pages = []screen.Page{base}
	switch {
	case opts.RC != "":
		m.pages = append(m.pages, m.route(screen.Target{Namespace: opts.Namespace, RC: opts.RC}))
	case opts.Workload != "":
		m.pages = append(m.pages, m.route(screen.Target{Namespace: opts.Namespace, Workload: opts.Workload, WorkloadKind: opts.WorkloadKind}))
	case m.home != nil && opts.Deployment == "":
		m.pages = append(m.pages, m.home)
	}
	m.refresh()
	return m
}

// member is one cluster of the console: its source (an empty one when none
// is given), and its keys gated by what it allows.
func member(o Options, km *KeyMap, readOnly bool) screen.Member {
	km.Gate(o.Actions != nil, readOnly, o.Denied)
	gateReads(km, o.Logs, o.Denied)
	src := o.Cluster
	if src == nil {
		src = emptySource{}
	}
	context := o.Context
	if context == "" {
		context = "-"
	}
	return screen.Member{Context: context, Src: src, Actions: o.Actions, Logs: o.Logs, PodEvents: o.PodEvents, Pods: o.Pods, Keys: km, Problem: o.Problem, Tried: o.Tried}
}

// Reached is news of a cluster the console opened without: connected at
// last (Options with its Cluster, Actions, Logs and Denied, as in Also),
// or tried again and still not (its Problem and Tried). Its member is
// replaced; its rows come with its watch's batches.
type Reached struct{ Options Options }

// reach takes a cluster's news in.
func (m *Model) reach(o Options) {
	for i, mem := range m.s.Members {
		if mem.Context != o.Context {
			continue
		}
		keys := m.keys0.Clone()
		m.s.Members[i] = member(o, &keys, m.s.ReadOnly)
		if m.s.Context == o.Context {
			m.s.Focus(o.Context)
		}
		m.refresh()
		return
	}
}

// memberNames are the clusters' contexts, joined by commas.
func memberNames(members []screen.Member) string {
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = m.Context
	}
	return strings.Join(names, ",")
}

// fleetNamespace is the namespace the fleet starts on: "" for every one
// with -A, or when the clusters watch different namespaces (each its
// context's own).
func fleetNamespace(opts Options) string {
	if opts.AllNamespaces {
		return ""
	}
	for _, o := range opts.Also {
		if o.AllNamespaces || o.Namespace != opts.Namespace {
			return ""
		}
	}
	return opts.Namespace
}

// tickMsg makes ages and the embedded clock move between batches.
type tickMsg time.Time

func tick() tea.Cmd { return tickAfter(time.Second) }

func tickAfter(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// ticked refreshes for the tick, unless the console is paced and refreshed
// less than a second ago: while a rollout churns, the paced refreshes
// already move the ages and the clock, and a tick's refresh would draw one
// frame more a second for nothing. The tick then comes back a second after
// that refresh, so nothing on the screen is ever more than a second old.
func (m Model) ticked() (tea.Model, tea.Cmd) {
	if m.pace.every > 0 {
		if wait := time.Second - time.Since(m.pace.last); wait > 0 {
			return m, tickAfter(wait)
		}
	}
	m.refresh()
	return m, tick()
}

// Init starts the once-a-second refresh.
func (m Model) Init() tea.Cmd { return tick() }

// update applies batches, resizes and the results of sent requests, and
// routes the rest: keys to the open overlay, else to the page on top (which
// leaves the console's own keys to the root, see screen.Global); what the
// overlay and the pages' questions wait for (forecasts, previews, plans) to
// them.
func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case cluster.Batch:
		return m.batch(msg.(cluster.Batch)) // pace.go
	case Reached:
		m.reach(msg.(Reached).Options)
		return m, nil
	case tickMsg:
		return m.ticked() // a refresh makes a new look
	}
	m.look = newLook() // any other message may change the screen
	switch msg := msg.(type) {
	case paceMsg:
		m.pace.due = false
		m.refresh()
		return m, nil
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.MouseWheelMsg:
		if m.overlay != nil {
			return m.toOverlay(msg)
		}
		return m.toPage(msg)
	case tea.KeyPressMsg:
		m.s.Toast = ""
		// The overlays and the pages' questions get a printable quit key
		// ("q"): in the picker it is part of what is typed, in a dialog
		// it cancels, and help quits. ctrl+c quits whatever the key map
		// says: no config file can lock the operator in.
		typing := m.overlay != nil || m.top().Typing()
		if msg.String() == keys.Interrupt || key.Matches(msg, m.s.Keys.Quit) && (!typing || msg.Text == "") {
			return m, tea.Quit
		}
		if m.overlay != nil {
			return m.toOverlay(msg)
		}
		return m.toPage(msg)
	case screen.Sent:
		m.s.Finish(msg)
		m.broadcast(msg)
		m.refresh()
		return m, nil
	case rolloutdialog.Containers:
		m.open(rolloutdialog.Opened(m.s, msg))
		return m, nil
	case screen.Open:
		m.open(msg.Overlay)
		return m, msg.Cmd
	}
	// The answers the overlay and the pages' questions wait for.
	cmd := m.broadcast(msg)
	if m.overlay != nil {
		var ovCmd tea.Cmd
		m.overlay, ovCmd = m.overlay.Update(msg)
		cmd = tea.Batch(cmd, ovCmd)
	}
	return m, cmd
}

// top is the page shown.
func (m *Model) top() screen.Page { return m.pages[len(m.pages)-1] }

// toPage hands msg to the page on top, and does what it asked for: go
// back once it closed, go elsewhere, open an overlay, or a global key.
func (m Model) toPage(msg tea.Msg) (tea.Model, tea.Cmd) {
	i := len(m.pages) - 1
	next, cmd := m.pages[i].Update(msg)
	if next == nil {
		m.back()
	} else {
		m.pages[i] = next
	}
	return m, tea.Batch(cmd, m.follow())
}

// broadcast hands msg to every page in the stack: a request's result, and
// the answers their questions wait for.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for i, p := range m.pages {
		next, cmd := p.Update(msg)
		if next != nil {
			m.pages[i] = next
		}
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// follow does what a page or an overlay asked of the root in its Update:
// a global key it left, a target to show, an overlay to open.
func (m *Model) follow() tea.Cmd {
	var cmds []tea.Cmd
	if msg, ok := m.s.TakeGlobal(); ok {
		cmds = append(cmds, m.global(msg))
	}
	if t, ok := m.s.Next(); ok {
		cmds = append(cmds, m.show(t))
	}
	if o, ok := m.s.Shown(); ok {
		m.open(o.Overlay)
		cmds = append(cmds, o.Cmd)
	}
	return tea.Batch(cmds...)
}

// back goes back from the page on top, which closed: home when there is
// one, else to the page under it.
func (m *Model) back() {
	if n := len(m.pages); n > 1 {
		m.pages = m.pages[: n-1 : n-1]
	}
	if m.home != nil {
		m.goHome()
		return
	}
	m.layout()
}

// goHome shows the home page (the fleet), read now.
func (m *Model) goHome() {
	if m.home == nil {
		m.s.Toast = "no fleet here: this picture of the cluster does not list its workloads"
		return
	}
	if m.top() != screen.Page(m.home) {
		m.pages = append(m.pages[:1:1], m.home)
	}
	m.home.Read()
	m.layout()
}

// open shows ov over the page, sized to the body; a nil ov (sent at once,
// or refused with the reason in the footer) leaves it as it is.
func (m *Model) open(ov screen.Overlay) {
	if ov != nil {
		m.overlay = ov
		m.layout()
	}
}

// toOverlay hands msg to the overlay, and goes where it asked to go.
func (m Model) toOverlay(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.overlay, cmd = m.overlay.Update(msg)
	if t, ok := m.s.Next(); ok {
		cmd = tea.Batch(cmd, m.show(t))
	}
	return m, cmd
}

// refresh reads the views from the source and tells every page. It runs in
// Update only, so View never touches the source.
func (m *Model) refresh() {
	m.pace.last, m.look = time.Now(), newLook()
	m.readClock()
	m.s.Read()
	m.observeFlow()
	for _, p := range append([]screen.Page(nil), m.pages...) {
		p.Read()
	}
	if r, ok := m.overlay.(screen.Refresher); ok {
		r.Refresh()
	}
	// The header's height depends on the rollout and the watch banner.
	m.layout()
	// A page may have asked to go elsewhere as it read (the fleet's start
	// rule opens the scope's only workload).
	if t, ok := m.s.Next(); ok {
		m.show(t)
	}
}

// show goes where the picker or a page asked: another scope, or the page
// of a target over the rollout page — the rollout page itself for a
// Deployment, read again now —, or a dialog on the target over the page
// shown.
func (m *Model) show(t screen.Target) tea.Cmd {
	if t.Scope != nil {
		return m.scopeTo(*t.Scope)
	}
	// A row of another cluster opens, and acts, there.
	m.s.Focus(t.Cluster)
	p := m.route(t)
	if t.Action != "" && t.Workload != "" {
		// A workload's page asks its questions in its own body: open it,
		// then the action there.
		m.push(p)
		next, cmd := p.Update(screen.Act(t.Action))
		if next != nil {
			m.pages[len(m.pages)-1] = next
		}
		return tea.Batch(cmd, m.follow())
	}
	if t.Action != "" {
		m.refresh()
		p.Update(screen.Act(t.Action))
		return m.follow()
	}
	m.push(p)
	return nil
}

// push makes p the page shown over the first, as the only one over it.
func (m *Model) push(p screen.Page) {
	m.pages = m.pages[:1:1]
	if p == m.pages[0] {
		m.refresh()
		return
	}
	m.pages = append(m.pages, p)
	m.layout()
}

// emptySource stands in when no cluster was given.
type emptySource struct{}

func (emptySource) Apply(cluster.Batch) bool                      { return false }
func (emptySource) Watch() cluster.WatchStatus                    { return cluster.WatchStatus{} }
func (emptySource) Deployments() []cluster.DeploymentSummary      { return nil }
func (emptySource) FirstDeployment(string) (string, string, bool) { return "", "", false }
func (emptySource) Rollout(string, string, time.Time) (cluster.RolloutView, bool) {
	return cluster.RolloutView{}, false
}
func (emptySource) Nodes() []cluster.NodeRow                        { return nil }
func (emptySource) Absent(string, string) cluster.Absence           { return cluster.Absence{} }
func (emptySource) Timeline(string, string) []cluster.TimelineEntry { return nil }
func (emptySource) RevisionDiff(string, string, int64) ([]cluster.DiffLine, error) {
	return nil, nil
}
func (emptySource) RCUpdate(string, string) (cluster.RCUpdateView, bool) {
	return cluster.RCUpdateView{}, false
}
func (emptySource) AddAction(string, string, cluster.TimelineEntry) {}

// globalKeys tells the console's own keys from a page's: help, the
// command line, the fleet, the scope (with a fleet) and the clock.
func globalKeys(k *KeyMap, home bool) func(tea.KeyPressMsg) bool {
	return func(msg tea.KeyPressMsg) bool {
		return key.Matches(msg, k.Help, k.Command, k.Fleet, k.Faster, k.Slower, k.PauseClock, k.PrevChange, k.NextChange, k.RehearseHere) ||
			home && key.Matches(msg, k.AllNamespaces)
	}
}

// global handles a key that is the console's own, the same from every page.
func (m *Model) global(msg tea.KeyPressMsg) tea.Cmd {
	k := m.s.Keys
	switch {
	case key.Matches(msg, k.Help):
		moves := true
		if p, ok := m.top().(interface{ Moves() bool }); ok {
			moves = p.Moves()
		}
		h := help.NewOver(m.s, moves)
		if p, ok := m.top().(interface{ Refused(string) string }); ok {
			h.Refused = p.Refused
		}
		m.open(h)
	case key.Matches(msg, k.Command):
		ns := m.s.Namespace
		if m.home != nil && m.top() == screen.Page(m.home) {
			ns = m.home.Namespace() // what the fleet shows
		}
		m.open(picker.NewIn(m.s, ':', ns))
	case key.Matches(msg, k.Fleet):
		if m.home == nil || m.top() != screen.Page(m.home) {
			m.goHome()
		}
	case key.Matches(msg, k.AllNamespaces):
		if m.top() != screen.Page(m.home) {
			m.goHome()
		}
		return m.scopeTo(m.scope.toggled(m.home, m.s.Namespace))
	case key.Matches(msg, k.RehearseHere):
		return m.rehearseHere()
	default:
		m.clockKey(msg)
	}
	return nil
}
