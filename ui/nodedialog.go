package ui

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
)

// nodeDialogKind is what a node dialog asks for.
type nodeDialogKind int

const (
	nodeCordon nodeDialogKind = iota + 1
	nodeUncordon
	nodeDrain
	nodeRoll
	nodeStopRoll
)

// nodeField is one choice of a node dialog's form: a toggle or a line of
// text.
type nodeField struct {
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

// nodeDialog builds one node request: a form of options (drain, roll) and
// a confirmation. Like dialog it never sends: the root does, once, on y.
type nodeDialog struct {
	kind   nodeDialogKind
	nodes  []string // cordon, uncordon, drain
	group  string   // roll, stop
	fields []nodeField
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
}

// newDrainDialog starts the drain form with kubectl's defaults, except
// DaemonSet pods, which almost every drain has to skip.
func newDrainDialog(nodes []string) *nodeDialog {
	return &nodeDialog{kind: nodeDrain, nodes: nodes, fields: []nodeField{
		drainIgnoreDaemonSets: {label: "ignore DaemonSets", toggle: true, on: true, hint: "skip DaemonSet pods instead of refusing"},
		drainDeleteEmptyDir:   {label: "delete emptyDir data", toggle: true, hint: "drain pods with emptyDir volumes, losing the data"},
		drainForce:            {label: "force", toggle: true, hint: "drain pods no controller will replace"},
		drainDisableEviction:  {label: "disable eviction", toggle: true, hint: "delete instead of evicting: bypasses PodDisruptionBudgets"},
		drainGracePeriod:      {label: "grace period", hint: "seconds; empty: each pod's own"},
		drainTimeout:          {label: "timeout", hint: "e.g. 5m; empty: wait for ever"},
	}}
}

// newRollDialog starts the roll form for group.
func newRollDialog(group string, size, outdated int, d action.RollDefaults) *nodeDialog {
	return &nodeDialog{kind: nodeRoll, group: group, roll: action.RollSettings{Size: size, Outdated: outdated}, defaults: d,
		fields: []nodeField{
			rollMaxSurge:       {label: "maxSurge", hint: "nodes or %, rounded up; empty: the group's own"},
			rollMaxUnavailable: {label: "maxUnavailable", hint: "nodes or %, rounded down, at least 1; empty: the group's own"},
			rollInterval:       {label: "interval", text: "15s", hint: "wait after each node before validating"},
			rollStep:           {label: "step", toggle: true, on: d.Step, hint: "wait for n after every node"},
		}}
}

// key handles one key press in the form or at the confirmation.
func (d *nodeDialog) key(msg tea.KeyPressMsg, km *KeyMap) dialogResult {
	d.problem = ""
	if key.Matches(msg, km.Back) {
		return dialogCancel
	}
	if d.confirming {
		switch msg.String() {
		case "y", "Y":
			return dialogSend
		case "n", "N", "q":
			return dialogCancel
		}
		return dialogOpen
	}
	if len(d.fields) == 0 {
		return dialogOpen
	}
	f := &d.fields[d.cursor]
	switch msg.String() {
	case "enter":
		return dialogNext
	case "up", "shift+tab":
		d.cursor = (d.cursor + len(d.fields) - 1) % len(d.fields)
	case "down", "tab":
		d.cursor = (d.cursor + 1) % len(d.fields)
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
	return dialogOpen
}

// drainOptions reads the drain form, or says what is wrong with it.
func (d *nodeDialog) drainOptions() (action.DrainOptions, string) {
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
func (d *nodeDialog) rollSettings() (action.RollSettings, string) {
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
