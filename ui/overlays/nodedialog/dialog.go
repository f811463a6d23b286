// Package nodedialog is the node dialogs overlay: cordon, uncordon and stop
// a roll ask for y; drain and roll a node group take a form of options
// first. A drain dialog previews what the drain would do to each node's pods
// and follows every change of its options. On y the request goes to the
// console's one request runner.
package nodedialog

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/screen"
)

// field is one choice of a dialog's form: a toggle or a line of text.
type field struct {
	label  string
	toggle bool
	on     bool
	text   string
	// hint says what the field takes, shown beside it.
	hint string
}

// Fields of the drain dialog, in order.
const (
	drainIgnoreDaemonSets = iota
	drainDeleteEmptyDir
	drainForce
	drainDisableEviction
	drainGracePeriod
	drainTimeout
)

// Fields of the roll dialog, in order.
const (
	rollMaxSurge = iota
	rollMaxUnavailable
	rollInterval
	rollStep
)

// Dialog builds one node request: a form of options (drain, roll) and a
// confirmation. It sends nothing itself: y hands the request to the runner.
type Dialog struct {
	s    *screen.Screen
	w, h int

	kind   action.Name
	nodes  []string // cordon, uncordon, drain
	group  string   // roll, stop
	fields []field
	cursor int
	// confirming is set at the confirmation: y sends.
	confirming bool
	// problem is why the form was refused, until the next key.
	problem string

	drain action.DrainOptions
	// previews are the drain previews by node, for the options in
	// previewFor; previewErr says why one could not be made.
	previews   map[string]action.DrainPreview
	previewErr string
	previewFor action.DrainOptions
	previewed  bool

	roll     action.RollSettings
	defaults action.RollDefaults
	// plan is what the roll will do, from PlanRoll.
	plan string

	// basis is what the plan was made from (recheck.go); moved says what
	// changed when y found it moved, refused that nothing is left to
	// send, rechecking that a drain's nodes are being previewed again.
	basis      basis
	moved      string
	refused    bool
	rechecking bool
	// frame scrolls what the dialog says under its keys.
	frame screen.Frame
}

// Confirm asks for y before sending kind (cordon, uncordon) to nodes, or
// sends it at once with --yes.
func Confirm(s *screen.Screen, kind action.Name, nodes []string) (screen.Overlay, tea.Cmd) {
	return open(&Dialog{s: s, kind: kind, nodes: nodes, confirming: true})
}

// StopRoll asks for y before stopping group's roll.
func StopRoll(s *screen.Screen, group string) (screen.Overlay, tea.Cmd) {
	return open(&Dialog{s: s, kind: action.StopRoll, group: group, confirming: true})
}

// Drain starts the drain form with kubectl's defaults, except DaemonSet
// pods, which almost every drain has to skip, and asks for its preview.
func Drain(s *screen.Screen, nodes []string) (screen.Overlay, tea.Cmd) {
	d := &Dialog{s: s, kind: action.Drain, nodes: nodes, fields: []field{
		drainIgnoreDaemonSets: {label: "ignore DaemonSets", toggle: true, on: true, hint: "skip DaemonSet pods instead of refusing"},
		drainDeleteEmptyDir:   {label: "delete emptyDir data", toggle: true, hint: "drain pods with emptyDir volumes, losing the data"},
		drainForce:            {label: "force", toggle: true, hint: "drain pods no controller will replace"},
		drainDisableEviction:  {label: "disable eviction", toggle: true, hint: "delete instead of evicting: bypasses PodDisruptionBudgets"},
		drainGracePeriod:      {label: "grace period", hint: "seconds; empty: each pod's own"},
		drainTimeout:          {label: "timeout", hint: "e.g. 5m; empty: wait for ever"},
	}}
	return d, d.preview()
}

// Roll starts the roll form for group, size nodes of which outdated.
func Roll(s *screen.Screen, group string, size, outdated int) (screen.Overlay, tea.Cmd) {
	def := s.RollDefaults
	return open(&Dialog{s: s, kind: action.RollGroup, group: group, roll: action.RollSettings{Size: size, Outdated: outdated}, defaults: def,
		fields: []field{
			rollMaxSurge:       {label: "maxSurge", hint: "nodes or %, rounded up; empty: the group's own"},
			rollMaxUnavailable: {label: "maxUnavailable", hint: "nodes or %, rounded down, at least 1; empty: the group's own"},
			rollInterval:       {label: "interval", text: "15s", hint: "wait after each node before validating"},
			rollStep:           {label: "step", toggle: true, on: def.Step, hint: "wait for n after every node"},
		}})
}

// open shows d; one that starts at its confirmation is sent at once with
// --yes.
func open(d *Dialog) (screen.Overlay, tea.Cmd) {
	d.basis = d.basisNow()
	if d.confirming && d.s.AssumeYes {
		return d.send()
	}
	return d, nil
}

// SetSize sizes the dialog to the body.
func (d *Dialog) SetSize(w, h int) { d.w, d.h = w, h; d.frame.SetSize(w, h) }

// Update handles a key in the form or at the confirmation, and the drain
// previews; it returns nil once the dialog has closed.
func (d *Dialog) Update(msg tea.Msg) (screen.Overlay, tea.Cmd) {
	switch msg := msg.(type) {
	case Previewed:
		if msg.recheck {
			return d.rechecked(msg)
		}
		d.takePreview(msg)
	case tea.KeyPressMsg:
		return d.key(msg)
	case tea.MouseWheelMsg:
		d.frame.Move(msg, d.s.Keys, false, len(d.content()))
	}
	return d, nil
}

func (d *Dialog) key(msg tea.KeyPressMsg) (screen.Overlay, tea.Cmd) {
	d.problem = ""
	if key.Matches(msg, d.s.Keys.Back) {
		return nil, nil
	}
	// ↑/↓ move between the form's fields; at the confirmation, and with
	// PgUp/PgDn/Home/End in the form, they scroll what does not fit.
	paging := msg.String() == "pgup" || msg.String() == "pgdown" || msg.String() == "home" || msg.String() == "end"
	if (d.confirming || paging) && d.frame.Move(msg, d.s.Keys, !d.confirming, len(d.content())) {
		return d, nil
	}
	if d.confirming {
		switch msg.String() {
		case "y", "Y":
			if d.refused {
				return nil, nil
			}
			return d.confirm()
		case "n", "N", "q":
			return nil, nil
		}
		return d, nil
	}
	if len(d.fields) == 0 {
		return d, nil
	}
	before := d.form()
	f := &d.fields[d.cursor]
	switch msg.String() {
	case "enter":
		if !d.accept() {
			return d, nil
		}
		d.confirming = true
		d.frame.Top()
		if d.s.AssumeYes {
			return d.send()
		}
		return d, nil
	case "up", "shift+tab":
		d.cursor = (d.cursor + len(d.fields) - 1) % len(d.fields)
		d.frame.Reveal(1 + d.cursor) // under the heading
	case "down", "tab":
		d.cursor = (d.cursor + 1) % len(d.fields)
		d.frame.Reveal(1 + d.cursor)
	case "space":
		if f.toggle {
			f.on = !f.on
		}
	case "backspace":
		if r := []rune(f.text); !f.toggle && len(r) > 0 {
			f.text = string(r[:len(r)-1])
		}
	case "ctrl+u":
		f.text = ""
	default:
		if !f.toggle && msg.Text != "" && msg.Text != " " {
			f.text += msg.Text
		}
	}
	// A changed drain option changes what the drain would do.
	if d.kind == action.Drain && d.form() != before {
		return d, d.preview()
	}
	return d, nil
}

// form is the form's content, to notice a change.
func (d *Dialog) form() string {
	var b strings.Builder
	for _, f := range d.fields {
		if f.on {
			b.WriteString("1")
		} else {
			b.WriteString("0")
		}
		b.WriteString(f.text + "\x00")
	}
	return b.String()
}

// accept checks the form and works out the plan the confirmation shows; it
// returns false with the reason in d.problem.
func (d *Dialog) accept() bool {
	switch d.kind {
	case action.Drain:
		o, problem := d.drainOptions()
		if problem != "" {
			d.problem = problem
			return false
		}
		d.drain = o
	case action.RollGroup:
		r, problem := d.rollSettings()
		if problem != "" {
			d.problem = problem
			return false
		}
		plan, err := d.s.Actions.PlanRoll(d.group, r)
		if err != nil {
			d.problem = err.Error()
			return false
		}
		d.roll, d.plan = r, plan
	}
	return true
}

// request is what the dialog asks for.
func (d *Dialog) request() action.Request {
	switch d.kind {
	case action.Cordon, action.Uncordon:
		return action.Request{Action: d.kind, Nodes: d.nodes}
	case action.Drain:
		return action.Request{Action: action.Drain, Nodes: d.nodes, Drain: d.drain}
	}
	return action.Request{Action: d.kind, Name: d.group, Roll: d.roll}
}

// send closes the dialog and hands its request to the runner, unless its
// nodes have gone meanwhile.
func (d *Dialog) send() (screen.Overlay, tea.Cmd) {
	if d.s.StillBusy() {
		return nil, nil
	}
	if gone := d.gone(); len(gone) > 0 {
		d.s.Toast = "✖ " + strings.Join(gone, ", ") + " no longer exists (deleted or replaced while the dialog was open) — nothing sent; pick a node again"
		return nil, nil
	}
	return nil, d.s.Send(d.request())
}

// gone are the dialog's nodes no longer in the cluster: deleted or replaced
// while the dialog was open.
func (d *Dialog) gone() []string {
	var gone []string
	for _, name := range d.nodes {
		if !slices.ContainsFunc(d.s.Nodes, func(n cluster.NodeRow) bool { return n.Name == name }) {
			gone = append(gone, name)
		}
	}
	return gone
}

// drainOptions reads the drain form, or says what is wrong with it.
func (d *Dialog) drainOptions() (action.DrainOptions, string) {
	f := d.fields
	o := action.DrainOptions{IgnoreDaemonSets: f[drainIgnoreDaemonSets].on, DeleteEmptyDirData: f[drainDeleteEmptyDir].on,
		Force: f[drainForce].on, DisableEviction: f[drainDisableEviction].on}
	if t := strings.TrimSpace(f[drainGracePeriod].text); t != "" {
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil || n < -1 {
			return o, "grace period " + strconv.Quote(t) + " is not a number of seconds (0 or more, -1 for each pod's own, empty for the default)"
		}
		o.GracePeriodSeconds = &n
	}
	if t := strings.TrimSpace(f[drainTimeout].text); t != "" {
		v, err := time.ParseDuration(t)
		if err != nil || v < 0 {
			return o, "timeout " + strconv.Quote(t) + " is not a duration such as 90s or 5m (empty waits for ever)"
		}
		o.Timeout = v
	}
	return o, ""
}

// rollSettings reads the roll form, or says what is wrong with it.
func (d *Dialog) rollSettings() (action.RollSettings, string) {
	f := d.fields
	r := d.roll
	r.MaxSurge = strings.TrimSpace(f[rollMaxSurge].text)
	r.MaxUnavailable = strings.TrimSpace(f[rollMaxUnavailable].text)
	r.Step = f[rollStep].on
	r.Interval = 0
	if t := strings.TrimSpace(f[rollInterval].text); t != "" {
		v, err := time.ParseDuration(t)
		if err != nil || v < 0 {
			return r, "interval " + strconv.Quote(t) + " is not a duration such as 15s or 1m"
		}
		r.Interval = v
	}
	return r, ""
}

// Writes reports whether the dialog asks before changing the cluster: the
// console holds the embedded clock while it is open.
func (d *Dialog) Writes() bool {
	s, _ := action.Lookup(d.kind)
	return s.Writes
}
