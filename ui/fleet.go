package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/overlays/rcview"
	"rollscope/ui/overlays/workloadview"
	"rollscope/ui/screen"
)

// The fleet (ui/overlays/fleetview) is the start screen when no workload is
// named — unless the scope holds exactly one, which then opens directly —,
// F opens it from anywhere and esc goes back to it from a rollout, the RC
// view and the StatefulSet / DaemonSet view. Its rows open those views, and
// the rollout keys on a Deployment's row open the same dialogs the rollout
// view opens. The scope keys (0, :ns, :ctx) filter it when the watch covers
// the scope asked for, and otherwise quit with a Switch for cmd to watch
// the new one.

// fleetKey handles a key while the fleet is shown.
func (m Model) fleetKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.s.Keys
	// The operator has taken over: the start rule no longer moves them.
	m.startPending = false
	if m.fleet.Typing() || m.fleet.Takes(msg) {
		m.fleet, _ = m.fleet.Update(msg)
		return m, nil
	}
	if ov, ok := m.globalOverlay(msg); ok {
		return m.open(ov, nil)
	}
	row, haveRow := m.fleet.Selected()
	switch {
	case key.Matches(msg, k.Select):
		if haveRow {
			m.openRow(row)
		}
	case key.Matches(msg, k.AllNamespaces):
		return m, m.toggleAllNamespaces(row, haveRow)
	case key.Matches(msg, k.Fleet):
	case m.clockKey(msg):
	default:
		if kind, ok := k.Pressed(msg, action.OnDeployment); ok && haveRow {
			if row.Kind != cluster.FleetDeployment {
				// A StatefulSet's, DaemonSet's or RC's keys are its
				// view's: open it, where they say what they do.
				m.openRow(row)
				return m, nil
			}
			m.pointAt(row)
			return m.openAction(kind)
		}
		m.sayDisabled(msg)
	}
	return m, nil
}

// openFleet shows the fleet, read now.
func (m *Model) openFleet() {
	if m.fleet == nil {
		m.s.Toast = "no fleet here: this picture of the cluster does not list its workloads"
		return
	}
	m.fleetOpen = true
	m.fleet.Read()
	m.layout()
}

// pointAt makes the screen show the rollout of a Deployment's row, so the
// rollout dialogs (which act on the deployment shown) act on it.
func (m *Model) pointAt(r cluster.FleetRow) {
	m.s.Namespace, m.s.Deployment, m.s.SelectedRS, m.s.SelectedRevision = r.Namespace, r.Name, "", 0
	m.history.CloseDiff()
	m.refresh()
}

// openRow opens the view of a row: a Deployment's rollout, an RC's rolling
// update view, a StatefulSet's or DaemonSet's view.
func (m *Model) openRow(r cluster.FleetRow) {
	m.fleetOpen = false
	m.rc, m.workload = nil, nil
	switch r.Kind {
	case cluster.FleetReplicationController:
		m.rc = rcview.New(m.s, r.Namespace, r.Name)
	case cluster.FleetStatefulSet:
		m.workload = workloadview.New(m.s, action.OnStatefulSet, r.Namespace, r.Name)
	case cluster.FleetDaemonSet:
		m.workload = workloadview.New(m.s, action.OnDaemonSet, r.Namespace, r.Name)
	default:
		m.pointAt(r)
	}
	m.layout()
}

// startRule opens the only workload of the scope directly, once the watch
// has listed the cluster and found one; with several the fleet stays.
func (m *Model) startRule() {
	if !m.startPending || !m.s.Watch.Synced {
		return
	}
	all := m.fleet.All()
	if len(all) == 0 {
		return // nothing yet: the scenario may still be creating it
	}
	m.startPending = false
	if len(all) == 1 {
		m.openRow(all[0])
	}
}

// toggleAllNamespaces is 0: every namespace, or back to one — the console's
// namespace, else the selected row's.
func (m *Model) toggleAllNamespaces(row cluster.FleetRow, haveRow bool) tea.Cmd {
	if m.fleet.Namespace() != "" {
		return m.scopeTo(screen.Scope{All: true})
	}
	ns := m.home
	if ns == "" && haveRow {
		ns = row.Namespace
	}
	if ns == "" {
		ns = m.s.Namespace
	}
	return m.scopeTo(screen.Scope{Namespace: ns})
}

// scopeTo goes to the scope asked for with 0, :ns or :ctx: a filter of the
// fleet when the watch already covers it, else quitting with a Switch that
// cmd turns into a console watching the new scope.
func (m *Model) scopeTo(sc screen.Scope) tea.Cmd {
	if m.fleet == nil {
		m.s.Toast = "no fleet here: :ns and :ctx choose what the fleet shows"
		return nil
	}
	if sc.ListContexts || sc.Context != "" {
		return m.switchContext(sc)
	}
	ns := sc.Namespace
	if sc.All {
		ns = ""
	}
	if m.watchAll || (ns != "" && ns == m.home) {
		m.fleet.SetNamespace(ns)
		m.openFleet()
		return nil
	}
	m.switchTo = &Switch{Namespace: ns, AllNamespaces: ns == ""}
	return tea.Quit
}

// switchContext lists the kubeconfig's contexts or switches to one.
func (m *Model) switchContext(sc screen.Scope) tea.Cmd {
	if m.contexts == nil {
		m.s.Toast = "the embedded cluster has one context: " + m.context
		return nil
	}
	if sc.ListContexts {
		m.s.Toast = "contexts: " + markCurrent(m.contexts, m.context) + " — :ctx NAME switches"
		return nil
	}
	switch {
	case sc.Context == m.context:
		m.s.Toast = "already on context " + m.context
		return nil
	case !contains(m.contexts, sc.Context):
		m.s.Toast = "no context " + sc.Context + " in the kubeconfig — :ctx lists them"
		return nil
	}
	ns := m.home
	if m.fleet.Namespace() == "" {
		ns = ""
	}
	m.switchTo = &Switch{Namespace: ns, AllNamespaces: ns == "" && m.watchAll, Context: sc.Context}
	return tea.Quit
}

// markCurrent lists contexts with the current one starred, as kubectl
// config get-contexts does.
func markCurrent(contexts []string, current string) string {
	out := make([]string, len(contexts))
	for i, c := range contexts {
		out[i] = c
		if c == current {
			out[i] = "*" + c
		}
	}
	return strings.Join(out, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fleetTitle is the header's top line while the fleet is shown.
func (m *Model) fleetTitle(w int) string {
	st := m.s.Styles
	left := st.AppTitle.Render("rollscope") + " " + st.Label.Render("ctx") + " " + st.Text.Render(m.context) +
		"  " + st.Accent.Render("fleet")
	if m.s.ReadOnly {
		left += " " + st.Badge.Render(" READ-ONLY ")
	}
	return joinEnds(left, m.clockText(), w)
}

// fleetFooter is the fleet's keys and the global ones that work on it.
func (m *Model) fleetFooter() []key.Binding {
	k := m.s.Keys
	if m.fleet.Typing() {
		// Every key is text then: only the filter line's keys work.
		return m.fleet.KeyMap().ShortHelp()
	}
	// In the fleet, : is mostly the scope: say so.
	cmd := k.Command
	cmd.SetHelp(cmd.Help().Key, "ns NAME / ctx / a name")
	return append(m.fleet.KeyMap().ShortHelp(), k.Help, cmd, k.Quit)
}
