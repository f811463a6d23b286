package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
	"rollscope/ui/overlays/canarydialog"
	"rollscope/ui/overlays/fleetview"
	"rollscope/ui/overlays/help"
	"rollscope/ui/overlays/picker"
	"rollscope/ui/overlays/rcview"
	"rollscope/ui/overlays/rolloutdialog"
	"rollscope/ui/overlays/workloadview"
	"rollscope/ui/panes/history"
	"rollscope/ui/panes/nodes"
	"rollscope/ui/panes/pods"
	"rollscope/ui/panes/replicasets"
	"rollscope/ui/panes/timeline"
	"rollscope/ui/screen"
)

// Model is the console's root: the focus, the global keys, the layout, and
// the routing of every message to the overlay, the RC view or the pane it
// is for. Everything else belongs to the panes and overlays.
type Model struct {
	s     *screen.Screen
	panes [paneCount]screen.Pane
	// nodes and history are two of panes, for what only they answer: the
	// node keys, and the History pane's diff.
	nodes   *nodes.Pane
	history *history.Pane
	focus   focus
	width   int
	height  int
	context string

	embedded EmbeddedControls

	// overlay is drawn over the panes and takes every key: the picker,
	// help or an action dialog; nil when none is open.
	overlay screen.Overlay
	// rc is the ReplicationController view (`:rc NAME`), drawn in place of
	// the panes; nil when closed.
	rc *rcview.View
	// workload is the StatefulSet or DaemonSet view (`:sts NAME`, `:ds
	// NAME`), drawn in place of the panes; nil when closed.
	workload *workloadview.View
	// switchTo is set when the console quits to watch another scope
	// (switch.go).
	switchTo *Switch
	// pace holds redraws back while the watch churns; frame is the screen
	// as last drawn, which View returns while look is the one it was drawn
	// for: nothing on the screen changed since (pace.go).
	pace  *pacer
	frame *frame
	memo  *memo // memo.go
	look  uint64

	// fleet is every workload's rollout (fleet.go), nil when the source
	// cannot list them; fleetOpen while it is drawn in place of the rest.
	// startPending is set until the start rule has looked at the scope.
	fleet                   *fleetview.View
	fleetOpen, startPending bool
	// watchAll is set when the watch covers every namespace (-A); home is
	// the console's namespace; contexts are the kubeconfig's, nil
	// embedded.
	watchAll bool
	home     string
	contexts []string
}

// New builds the console. With no Cluster it shows an empty, waiting
// screen rather than failing.
func New(opts Options) Model {
	km := DefaultKeyMap()
	if opts.Keys != nil {
		km = opts.Keys.Clone()
	}
	if opts.Embedded == nil {
		const why = "only in embedded mode: a live cluster's clock is not ours to change"
		km.Disable("faster", why)
		km.Disable("slower", why)
		km.Disable("pause-clock", why)
	}
	km.Gate(opts.Actions != nil, opts.ReadOnly, opts.Denied)
	gateReads(&km, opts.Logs, opts.Denied)
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	src := opts.Cluster
	if src == nil {
		src = emptySource{}
	}
	theme := opts.Theme
	if theme.Name == "" && !theme.Plain {
		// No theme chosen: dark, or none at all when NO_COLOR asks.
		theme = themes.Auto(true)
	}
	styles := theme.Styles()
	context := opts.Context
	if context == "" {
		context = "-"
	}
	s := &screen.Screen{
		Styles: styles, Paints: draw.NewPaints(styles), Keys: &km, Src: src, Actions: opts.Actions, Logs: opts.Logs, Clock: clock,
		Namespace: opts.Namespace, Deployment: opts.Deployment,
		AssumeYes: opts.AssumeYes, ReadOnly: opts.ReadOnly, Record: opts.Record, RollDefaults: opts.RollDefaults,
	}
	m := Model{s: s, context: context, embedded: opts.Embedded, nodes: nodes.New(s), history: history.New(s),
		pace: &pacer{every: opts.Pace}, frame: &frame{}, memo: &memo{}}
	m.panes = [paneCount]screen.Pane{
		focusReplicaSets: replicasets.New(s),
		focusPods:        pods.New(s),
		focusNodes:       m.nodes,
		focusHistory:     m.history,
		focusTimeline:    timeline.New(s),
	}
	if opts.RC != "" {
		m.rc = rcview.New(s, opts.Namespace, opts.RC)
	}
	if opts.Workload != "" {
		m.workload = workloadview.New(s, opts.WorkloadKind, opts.Namespace, opts.Workload)
	}
	m.watchAll, m.home, m.contexts = opts.AllNamespaces, opts.Namespace, opts.Contexts
	if fleetview.Answers(src) {
		ns := opts.Namespace
		if opts.AllNamespaces {
			ns = ""
		}
		m.fleet = fleetview.New(s, ns, opts.ScopeNote)
		if opts.Deployment == "" && opts.RC == "" && opts.Workload == "" {
			m.fleetOpen, m.startPending = true, true
		}
	}
	m.refresh()
	m.setFocus(focusReplicaSets)
	return m
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
// routes the rest: keys to the open overlay, else to the RC view's own
// keys, else to the global keys, else to the focused pane; what the overlay
// and the RC view's dialog wait for (forecasts, previews, plans) to them.
func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case cluster.Batch:
		return m.batch(msg.(cluster.Batch)) // pace.go
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
		if m.fleetOpen {
			m.fleet, _ = m.fleet.Update(msg)
			return m, nil
		}
		return m.toFocused(msg)
	case tea.KeyPressMsg:
		m.s.Toast = ""
		return m.key(msg)
	case screen.Sent:
		m.s.Finish(msg)
		m.nodes.Update(msg)
		m.refresh()
		return m, nil
	case rolloutdialog.Containers:
		return m.open(rolloutdialog.Opened(m.s, msg), nil)
	case screen.Open:
		return m.open(msg.Overlay, msg.Cmd)
	}
	// The answers the overlay and the RC view's dialog wait for.
	var rcCmd, ovCmd tea.Cmd
	if m.rc != nil {
		m.rc, rcCmd = m.rc.Update(msg)
	}
	if m.workload != nil {
		m.workload, _ = m.workload.Update(msg)
	}
	if m.overlay != nil {
		m.overlay, ovCmd = m.overlay.Update(msg)
	}
	return m, tea.Batch(rcCmd, ovCmd)
}

func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.s.Keys
	// The overlays and the RC view's dialog get a printable quit key
	// ("q"): in the picker it is part of what is typed, in a dialog it
	// cancels, and help quits.
	typing := m.overlay != nil || (m.rc != nil && m.rc.Typing()) || (m.workload != nil && m.workload.Typing()) ||
		(m.fleetOpen && m.fleet.Typing())
	if key.Matches(msg, k.Quit) && (!typing || msg.Text == "") {
		return m, tea.Quit
	}
	if m.overlay != nil {
		return m.toOverlay(msg)
	}
	if m.fleetOpen {
		return m.fleetKey(msg)
	}
	if m.rc != nil && m.rc.Takes(msg) {
		var cmd tea.Cmd
		m.rc, cmd = m.rc.Update(msg)
		if m.rc == nil && m.fleet != nil {
			// esc from the RC view goes back to the fleet.
			m.openFleet()
		}
		return m, cmd
	}
	if m.workload != nil && m.workload.Takes(msg) {
		var cmd tea.Cmd
		m.workload, cmd = m.workload.Update(msg)
		if m.workload == nil && m.fleet != nil {
			m.openFleet()
		}
		m.layout()
		return m, cmd
	}
	// On a pod's glyph in the ReplicaSets pane, enter and esc are the glyph
	// cursor's (the pod's detail, back to the row) before any key enter
	// has on a ReplicaSet's row.
	if m.focus == focusReplicaSets && m.s.Glyph != "" && (key.Matches(msg, k.Select) || key.Matches(msg, k.Back)) {
		return m.toFocused(msg)
	}
	// The node keys come first: in the Nodes pane space and x steer a
	// roll instead of the clock and the rollout.
	if ov, cmd, ok := m.nodes.Key(msg, m.focus == focusNodes); ok {
		return m.open(ov, cmd)
	}
	if ov, ok := m.globalOverlay(msg); ok {
		return m.open(ov, nil)
	}
	switch {
	case key.Matches(msg, k.NextPane):
		m.setFocus((m.focus + 1) % paneCount)
	case key.Matches(msg, k.PrevPane):
		m.setFocus((m.focus + paneCount - 1) % paneCount)
	case key.Matches(msg, k.Fleet):
		m.openFleet()
	case key.Matches(msg, k.AllNamespaces) && m.fleet != nil:
		m.openFleet()
		return m, m.toggleAllNamespaces(m.fleet.Selected())
	case key.Matches(msg, k.Back) && m.fleet != nil && m.rc == nil && m.workload == nil &&
		!(m.focus == focusHistory && m.history.DiffOpen()):
		// esc from a rollout goes back to the fleet.
		m.openFleet()
	case key.Matches(msg, k.Filter):
		return m.open(picker.New(m.s, '/'), nil)
	case m.clockKey(msg):
	default:
		if kind, ok := k.Pressed(msg, action.OnDeployment); ok {
			return m.openAction(kind)
		}
		if m.sayDisabled(msg) {
			return m, nil
		}
		if m.enter(msg) {
			return m, nil
		}
		return m.toFocused(msg)
	}
	return m, nil
}

// open shows ov over the panes, sized to the body; a nil ov (sent at once,
// or refused with the reason in the footer) leaves them as they are.
func (m Model) open(ov screen.Overlay, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	if ov != nil {
		m.overlay = ov
		m.layout()
	}
	return m, cmd
}

// openAction opens the dialog of rollout action kind on the Deployment in
// view (the canary dialog for a canary's actions): the rollout view and a
// Deployment's row in the fleet open the same.
func (m Model) openAction(kind action.Name) (tea.Model, tea.Cmd) {
	if canarydialog.Opens(kind) {
		return m.open(canarydialog.Open(m.s, kind))
	}
	return m.open(rolloutdialog.Open(m.s, kind))
}

// sayDisabled puts in the footer why msg's key does nothing here when it is
// an action key disabled now, and says whether it was.
func (m *Model) sayDisabled(msg tea.KeyPressMsg) bool {
	desc, reason, ok := m.s.Keys.DisabledFor(msg)
	if ok {
		m.s.Toast = desc + ": " + reason
	}
	return ok
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

func (m Model) toFocused(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.panes[m.focus], cmd = m.panes[m.focus].Update(msg)
	// Moving in the ReplicaSets pane changes which pods the pods pane
	// shows.
	if m.focus == focusReplicaSets {
		m.panes[focusPods], _ = m.panes[focusPods].Update(screen.Refreshed{})
	}
	return m, cmd
}

func (m *Model) setFocus(f focus) {
	m.panes[m.focus], _ = m.panes[m.focus].Update(screen.Focus(false))
	m.focus = f
	m.panes[m.focus], _ = m.panes[m.focus].Update(screen.Focus(true))
	m.layout()
}

// changeSpeed multiplies the embedded clock's speed, within bounds.
func (m *Model) changeSpeed(factor float64) {
	sp := m.embedded.Speed() * factor
	sp = min(max(sp, minSpeed), maxSpeed)
	m.embedded.SetSpeed(sp)
	m.readClock()
	m.s.Toast = "clock speed ×" + formatSpeed(sp)
}

// readClock notes the embedded clock's speed for the header, so View does
// not call out to the clock.
func (m *Model) readClock() {
	if m.embedded != nil {
		m.s.Speed, m.s.ClockPaused = m.embedded.Speed(), m.embedded.Paused()
	}
}

// refresh reads the views from the source and tells every pane. It runs in
// Update only, so View never touches the source.
func (m *Model) refresh() {
	m.pace.last, m.look = time.Now(), newLook()
	m.readClock()
	m.s.Read()
	if m.rc != nil {
		m.rc.Read()
	}
	if m.workload != nil {
		m.workload.Read()
	}
	if m.fleetOpen {
		m.fleet.Read()
		m.startRule()
	}
	for i := range m.panes {
		m.panes[i], _ = m.panes[i].Update(screen.Refreshed{})
	}
	if r, ok := m.overlay.(screen.Refresher); ok {
		r.Refresh()
	}
	// The header's height depends on the rollout and the watch banner.
	m.layout()
}

// show goes where the picker asked: another deployment, a
// ReplicationController's view, or another scope for the fleet.
func (m *Model) show(t screen.Target) tea.Cmd {
	if t.Scope != nil {
		return m.scopeTo(*t.Scope)
	}
	m.fleetOpen = false
	if t.RC != "" {
		m.workload = nil
		m.rc = rcview.New(m.s, t.Namespace, t.RC)
		m.layout()
		return nil
	}
	if t.Workload != "" {
		m.rc = nil
		m.workload = workloadview.New(m.s, t.WorkloadKind, t.Namespace, t.Workload)
		m.layout()
		return nil
	}
	m.workload = nil
	m.s.Namespace, m.s.Deployment, m.s.SelectedRS = t.Namespace, t.Deployment, ""
	m.history.CloseDiff()
	m.refresh()
	return nil
}

// emptySource stands in when no cluster was given.
type emptySource struct{}

func (emptySource) Apply(cluster.Batch) bool                 { return false }
func (emptySource) Watch() cluster.WatchStatus               { return cluster.WatchStatus{} }
func (emptySource) Deployments() []cluster.DeploymentSummary { return nil }
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

// clockKey steers the embedded clock on +, - and space, the same from the
// fleet and the rollout view, and reports whether msg was one of them.
func (m *Model) clockKey(msg tea.KeyPressMsg) bool {
	k := m.s.Keys
	switch {
	case key.Matches(msg, k.Faster):
		m.changeSpeed(2)
	case key.Matches(msg, k.Slower):
		m.changeSpeed(0.5)
	case key.Matches(msg, k.PauseClock):
		m.embedded.SetPaused(!m.embedded.Paused())
		m.readClock()
	default:
		return false
	}
	return true
}

// globalOverlay is the overlay ? (help) and : (the command line) open, the
// same from the fleet and the rollout view, and whether msg was one of them.
func (m *Model) globalOverlay(msg tea.KeyPressMsg) (screen.Overlay, bool) {
	k := m.s.Keys
	switch {
	case key.Matches(msg, k.Help):
		return help.New(m.s), true
	case key.Matches(msg, k.Command):
		return picker.New(m.s, ':'), true
	}
	return nil, false
}
