// Package uitest is what the console's package tests share: a hand-made
// picture of a cluster (Source), a Screen over it with the default keys,
// keys as the terminal sends them, and the plain text of a view. Each
// page, pane and overlay package tests itself with it, without the root.
package uitest

import (
	"context"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// T0 is the clock of every test Screen.
var T0 = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

// Source is a hand-made picture of a cluster: whatever a test puts in it,
// read as a cluster.Cluster would answer.
type Source struct {
	Status     cluster.WatchStatus
	Summaries  []cluster.DeploymentSummary
	Rollouts   map[string]cluster.RolloutView // by namespace/name
	NodeRows   []cluster.NodeRow
	Entries    []cluster.TimelineEntry
	Diffs      map[int64][]cluster.DiffLine
	RCs        map[string]cluster.RCUpdateView // by namespace/name
	FleetRows  []cluster.FleetRow
	Sets       map[string]cluster.StatefulSetView // by namespace/name
	Daemons    map[string]cluster.DaemonSetView   // by namespace/name
	PodDetails map[string]cluster.PodDetail       // by namespace/name
	Added      []cluster.TimelineEntry            // what AddAction was given
}

func (s *Source) Apply(cluster.Batch) bool                 { return true }
func (s *Source) Watch() cluster.WatchStatus               { return s.Status }
func (s *Source) Deployments() []cluster.DeploymentSummary { return s.Summaries }

// FirstDeployment is the first of Summaries in namespace, in their order.
func (s *Source) FirstDeployment(namespace string) (string, string, bool) {
	return First(s.Summaries, namespace)
}

// First is the first of summaries in namespace ("": any), in their order:
// FirstDeployment for a source made of summaries.
func First(summaries []cluster.DeploymentSummary, namespace string) (string, string, bool) {
	for _, d := range summaries {
		if namespace == "" || d.Namespace == namespace {
			return d.Namespace, d.Name, true
		}
	}
	return "", "", false
}
func (s *Source) Rollout(ns, name string, _ time.Time) (cluster.RolloutView, bool) {
	r, ok := s.Rollouts[ns+"/"+name]
	return r, ok
}
func (s *Source) Nodes() []cluster.NodeRow                        { return s.NodeRows }
func (s *Source) Timeline(string, string) []cluster.TimelineEntry { return s.Entries }
func (s *Source) RevisionDiff(_, _ string, rev int64) ([]cluster.DiffLine, error) {
	d, ok := s.Diffs[rev]
	if !ok {
		return nil, errors.New("revision " + draw.Itoa(rev) + " is not in the history any more")
	}
	return d, nil
}
func (s *Source) RCUpdate(ns, name string) (cluster.RCUpdateView, bool) {
	v, ok := s.RCs[ns+"/"+name]
	return v, ok
}
func (s *Source) AddAction(_, _ string, e cluster.TimelineEntry) { s.Added = append(s.Added, e) }
func (s *Source) Absent(string, string) cluster.Absence          { return cluster.Absence{} }

// Fleet is every row in namespace ("" for all).
func (s *Source) Fleet(ns string, _ time.Time) []cluster.FleetRow {
	var out []cluster.FleetRow
	for _, r := range s.FleetRows {
		if ns == "" || r.Namespace == ns {
			out = append(out, r)
		}
	}
	return out
}

// Namespaces are the rows' namespaces, in order of first appearance.
func (s *Source) Namespaces() []string {
	var out []string
	for _, r := range s.FleetRows {
		if len(out) == 0 || out[len(out)-1] != r.Namespace {
			out = append(out, r.Namespace)
		}
	}
	return out
}

func (s *Source) StatefulSet(ns, name string, _ time.Time) (cluster.StatefulSetView, bool) {
	v, ok := s.Sets[ns+"/"+name]
	return v, ok
}

func (s *Source) DaemonSet(ns, name string, _ time.Time) (cluster.DaemonSetView, bool) {
	v, ok := s.Daemons[ns+"/"+name]
	return v, ok
}

// Actions records what is sent and answers every check, plan and forecast
// with what the test put in it.
type Actions struct {
	Sent         []action.Request
	Result       string
	CheckErr     error
	ForecastText string
	Images       []action.Container
	Drain        action.DrainPreview
	Plan         string
	RCPlan       action.RCPlan
	PlanErr      error
}

func (a *Actions) Check(action.Request) error { return a.CheckErr }
func (a *Actions) Send(_ context.Context, r action.Request) (string, error) {
	a.Sent = append(a.Sent, r)
	return a.Result, nil
}
func (a *Actions) Forecast(context.Context, action.Request) (string, error) {
	return a.ForecastText, nil
}
func (a *Actions) Containers(context.Context, string, string) ([]action.Container, error) {
	return a.Images, nil
}
func (a *Actions) UndoPreview(context.Context, string, string, int64) ([]cluster.DiffLine, error) {
	return []cluster.DiffLine{{Op: '-', Text: "image: nginx:1.28"}, {Op: '+', Text: "image: nginx:1.27"}}, nil
}
func (a *Actions) PreviewDrain(context.Context, string, action.DrainOptions) (action.DrainPreview, error) {
	return a.Drain, nil
}
func (a *Actions) PlanRoll(string, action.RollSettings) (string, error) { return a.Plan, a.PlanErr }
func (a *Actions) PlanRCUpdate(context.Context, string, action.RCUpdateInput) (action.RCPlan, error) {
	return a.RCPlan, a.PlanErr
}

// NewScreen is a Screen over src showing shop/frontend at T0, with the
// default keys; the action keys work when acts is not nil. It is read
// once, as the root reads it before the first frame.
func NewScreen(src screen.Source, acts screen.Actions) *screen.Screen {
	km := keys.Default()
	km.Gate(acts != nil, false, nil)
	st := themes.Dark().Styles()
	s := &screen.Screen{Styles: st, Paints: draw.NewPaints(st), Keys: &km, Src: src, Clock: func() time.Time { return T0 },
		Namespace: "shop", Deployment: "frontend"}
	if acts != nil {
		s.Actions = acts
	}
	s.Read()
	return s
}

// Press is the key a terminal sends for k: a name ("tab", "shift+tab",
// "enter", "esc", "space", "up", "down", "pgup", "pgdown", "home", "end",
// "backspace", "ctrl+c") or the text typed.
func Press(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// Plain is a view's text without its colours.
func Plain(view string) string { return ansi.Strip(view) }

// Lines are a view's plain lines, trailing blanks trimmed.
func Lines(view string) []string {
	out := strings.Split(Plain(view), "\n")
	for i := range out {
		out[i] = strings.TrimRight(out[i], " ")
	}
	return out
}

// Base stands for the page under a page drawn over it (the rollout page
// under the RC and workload pages): it keeps the keys it is given, draws
// "panes", and has a one-line header.
type Base struct{ Keys []string }

func (b *Base) Update(msg tea.Msg) (screen.Page, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		b.Keys = append(b.Keys, k.String())
	}
	return b, nil
}
func (b *Base) View() string                { return "panes" }
func (b *Base) SetSize(int, int)            {}
func (b *Base) KeyMap() help.KeyMap         { return keys.Hints("tab", "next pane") }
func (b *Base) Read()                       {}
func (b *Base) Header(int, string) []string { return []string{"deploy frontend"} }
func (b *Base) HeaderHeight(int) int        { return 1 }
func (b *Base) Title() string               { return "rollscope shop/frontend" }
func (b *Base) Typing() bool                { return false }
func (b *Base) Writes() bool                { return false }

// Keys hands c each key in turn and returns the last command.
func Keys[C interface{ Update(tea.Msg) (C, tea.Cmd) }](c C, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		c, cmd = c.Update(Press(k))
	}
	return cmd
}

// Run runs cmd as Bubble Tea would, batches and sequences included, and
// returns the messages it brought, in order. Ticks are not waited for.
func Run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, Run(c)...)
		}
		return out
	case nil:
		return nil
	default:
		return []tea.Msg{msg}
	}
}

// Pod answers the pod detail view (screen.PodSource).
func (s *Source) Pod(ns, name string) (cluster.PodDetail, bool) {
	d, ok := s.PodDetails[ns+"/"+name]
	return d, ok
}

// Answer presses keys in the overlay o, running the commands they give as
// Bubble Tea would (what they send is sent); nil once o has closed.
func Answer(o screen.Overlay, keys ...string) screen.Overlay {
	for _, k := range keys {
		var cmd tea.Cmd
		o, cmd = o.Update(Press(k))
		Run(cmd)
		if o == nil {
			return nil
		}
	}
	return o
}

// Focused sizes pane p to w×h, focuses it and tells it the Screen was read,
// as the root does with the pane that has the focus.
func Focused(p screen.Pane, w, h int) {
	p.SetSize(w, h)
	p.Update(screen.Focus(true))
	p.Update(screen.Refreshed{})
}

func (a *Actions) PlanGates(context.Context, action.Request) ([]action.GateReading, error) {
	return nil, nil
}
