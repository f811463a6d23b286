package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// Model is the console's root: the focus, the global keys, the help overlay
// and the deployment picker. Everything else belongs to the panes.
type Model struct {
	s        *screen
	panes    [paneCount]Pane
	focus    focus
	width    int
	height   int
	keys     *KeyMap
	clock    func() time.Time
	context  string
	embedded EmbeddedControls

	showHelp   bool
	helpOffset int
	picker     *picker
	// toast is a one-line message in the footer until the next key.
	toast string

	actions      Actions
	rollDefaults action.RollDefaults
	assumeYes    bool
	readOnly     bool
	record       bool
	// dialog is the action being built, nil when none.
	dialog *dialog
	// busy names the request on its way, "" when none: one at a time, so
	// a key pressed twice sends nothing twice.
	busy string
	// rc is the ReplicationController view (`:rc NAME`), nil when closed.
	rc *rcScreen
}

// New builds the console. With no Cluster it shows an empty, waiting
// screen rather than failing.
func New(opts Options) Model {
	km := DefaultKeyMap()
	if opts.Keys != nil {
		km = *opts.Keys
	}
	if opts.Embedded == nil {
		const why = "only in embedded mode: a live cluster's clock is not ours to change"
		km.Disable("faster", why)
		km.Disable("slower", why)
		km.Disable("pause-clock", why)
	}
	km.Gate(opts.Actions != nil, opts.ReadOnly, opts.Denied)
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
	s := &screen{
		styles: styles, paints: draw.NewPaints(styles), keys: &km, src: src,
		namespace: opts.Namespace, deployment: opts.Deployment, readOnly: opts.ReadOnly,
	}
	m := Model{s: s, keys: &km, clock: clock, context: context, embedded: opts.Embedded,
		actions: opts.Actions, rollDefaults: opts.RollDefaults, assumeYes: opts.AssumeYes, readOnly: opts.ReadOnly, record: opts.Record}
	m.panes = [paneCount]Pane{
		focusReplicaSets: newReplicaSetsPane(s),
		focusPods:        newPodsPane(s),
		focusNodes:       newNodesPane(s),
		focusHistory:     newHistoryPane(s),
		focusTimeline:    newTimelinePane(s),
	}
	if opts.RC != "" {
		m.rc = &rcScreen{namespace: opts.Namespace, name: opts.RC}
	}
	m.refresh()
	m.setFocus(focusReplicaSets)
	return m
}

// tickMsg makes ages and the embedded clock move between batches.
type tickMsg time.Time

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Init starts the once-a-second refresh.
func (m Model) Init() tea.Cmd { return tick() }

// Update applies batches, resizes, and routes keys: overlays first, then
// the global keys, then the focused pane.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case model.Batch:
		// A batch that changed nothing visible (and left the watch as it
		// was) costs no refresh: at 20 batches a second that matters.
		if m.s.src.Apply(msg) || m.s.src.Watch() != m.s.watch {
			m.refresh()
		}
		return m, nil
	case tickMsg:
		m.refresh()
		return m, tick()
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.MouseWheelMsg:
		if m.showHelp {
			m.scrollHelp(msg.Button == tea.MouseWheelDown)
			return m, nil
		}
		return m.toFocused(msg)
	case tea.KeyPressMsg:
		m.toast = ""
		return m.key(msg)
	case inspectedMsg:
		return m.inspected(msg)
	case actionDoneMsg:
		return m.done(msg)
	case previewMsg:
		return m.previewed(msg)
	case forecastMsg:
		return m.forecasted(msg)
	case rcPlannedMsg:
		return m.rcPlanned(msg)
	case rcDoneMsg:
		return m.rcDone(msg)
	case nodePreviewMsg:
		return m.previewedDrain(msg)
	case nodeDoneMsg:
		return m.nodeDone(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	// In the picker a printable quit key ("q") is part of the name typed.
	typing := m.picker != nil || m.dialog != nil || (m.rc != nil && m.rc.dialog != nil)
	if key.Matches(msg, k.Quit) && (!typing || msg.Text == "") {
		return m, tea.Quit
	}
	if m.dialog != nil && m.dialog.node != nil {
		return m.nodeDialogKey(msg)
	}
	if m.dialog != nil {
		return m.dialogKey(msg)
	}
	if m.picker != nil {
		if next, ok := m.rcPickerKey(msg); ok {
			return next, nil
		}
		return m.pickerKey(msg)
	}
	if m.rc != nil && !m.showHelp {
		if next, cmd, ok := m.rcKey(msg); ok {
			return next, cmd
		}
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, k.Help), key.Matches(msg, k.Back):
			m.showHelp = false
		case key.Matches(msg, k.Up):
			m.scrollHelp(false)
		case key.Matches(msg, k.Down):
			m.scrollHelp(true)
		}
		return m, nil
	}
	// The node keys come first: in the Nodes pane space and x steer a
	// roll instead of the clock and the rollout.
	if next, cmd, ok := m.nodeKey(msg); ok {
		return next, cmd
	}
	switch {
	case key.Matches(msg, k.Help):
		m.showHelp, m.helpOffset = true, 0
		return m, nil
	case key.Matches(msg, k.NextPane):
		m.setFocus((m.focus + 1) % paneCount)
		return m, nil
	case key.Matches(msg, k.PrevPane):
		m.setFocus((m.focus + paneCount - 1) % paneCount)
		return m, nil
	case key.Matches(msg, k.Command):
		m.openPicker(':')
		return m, nil
	case key.Matches(msg, k.Filter):
		m.openPicker('/')
		return m, nil
	case key.Matches(msg, k.Faster):
		m.changeSpeed(2)
		return m, nil
	case key.Matches(msg, k.Slower):
		m.changeSpeed(0.5)
		return m, nil
	case key.Matches(msg, k.PauseClock):
		m.embedded.SetPaused(!m.embedded.Paused())
		m.readClock()
		return m, nil
	}
	if kind, ok := k.Pressed(msg, action.OnDeployment); ok {
		return m.startAction(kind)
	}
	if desc, reason, ok := k.DisabledFor(msg); ok {
		m.toast = desc + ": " + reason
		return m, nil
	}
	return m.toFocused(msg)
}

func (m Model) toFocused(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.panes[m.focus], cmd = m.panes[m.focus].Update(msg)
	// Moving in the ReplicaSets pane changes which pods the pods pane
	// shows.
	if m.focus == focusReplicaSets {
		m.panes[focusPods], _ = m.panes[focusPods].Update(refreshedMsg{})
	}
	return m, cmd
}

func (m *Model) setFocus(f focus) {
	m.panes[m.focus], _ = m.panes[m.focus].Update(focusMsg(false))
	m.focus = f
	m.panes[m.focus], _ = m.panes[m.focus].Update(focusMsg(true))
	m.layout()
}

// changeSpeed multiplies the embedded clock's speed, within bounds.
func (m *Model) changeSpeed(factor float64) {
	sp := m.embedded.Speed() * factor
	sp = min(max(sp, minSpeed), maxSpeed)
	m.embedded.SetSpeed(sp)
	m.readClock()
	m.toast = "clock speed ×" + formatSpeed(sp)
}

// readClock notes the embedded clock's speed for the header, so View does
// not call out to the clock.
func (m *Model) readClock() {
	if m.embedded != nil {
		m.s.speed, m.s.clockPaused = m.embedded.Speed(), m.embedded.Paused()
	}
}

// refresh reads the views for the selected deployment from the source.
// It runs in Update only, so View never touches the source.
func (m *Model) refresh() {
	s := m.s
	s.now = m.clock()
	s.watch = s.src.Watch()
	m.readClock()
	if s.deployment == "" {
		for _, d := range s.src.Deployments() {
			if s.namespace == "" || d.Namespace == s.namespace {
				s.namespace, s.deployment = d.Namespace, d.Name
				break
			}
		}
	}
	s.rollout, s.haveRollout = model.RolloutView{}, false
	if s.deployment != "" {
		s.rollout, s.haveRollout = s.src.Rollout(s.namespace, s.deployment, s.now)
		s.timeline = s.src.Timeline(s.namespace, s.deployment)
	}
	s.applyPausedWant()
	s.nodes = s.src.Nodes()
	m.refreshRC()
	for i := range m.panes {
		m.panes[i], _ = m.panes[i].Update(refreshedMsg{})
	}
	// The header's height depends on the rollout and the watch banner.
	m.layout()
}

// selectDeployment switches the console to another rollout.
func (m *Model) selectDeployment(namespace, name string) {
	m.s.namespace, m.s.deployment, m.s.selectedRS = namespace, name, ""
	if hp, ok := m.panes[focusHistory].(*historyPane); ok {
		hp.diffRev = 0
	}
	m.refresh()
}

// emptySource stands in when no cluster was given.
type emptySource struct{}

func (emptySource) Apply(model.Batch) bool                 { return false }
func (emptySource) Watch() model.WatchStatus               { return model.WatchStatus{} }
func (emptySource) Deployments() []model.DeploymentSummary { return nil }
func (emptySource) Rollout(string, string, time.Time) (model.RolloutView, bool) {
	return model.RolloutView{}, false
}
func (emptySource) Nodes() []model.NodeRow                        { return nil }
func (emptySource) Timeline(string, string) []model.TimelineEntry { return nil }
func (emptySource) RevisionDiff(string, string, int64) ([]model.DiffLine, error) {
	return nil, nil
}
func (emptySource) RCUpdate(string, string) (model.RCUpdateView, bool) {
	return model.RCUpdateView{}, false
}
func (emptySource) AddAction(string, string, model.TimelineEntry) {}
