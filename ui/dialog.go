package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
)

// stage is where a dialog is: choosing, typing, or asking for y.
type stage int

const (
	stagePickContainer stage = iota
	stageInput
	stagePickRevision
	stageConfirm
)

// dialog builds one action request step by step and shows what it will do
// before it is sent. It never sends: the root does, once, on y.
type dialog struct {
	req   action.Request
	title string
	stage stage

	containers []action.Container
	cursor     int // in containers or revisions
	revisions  []model.RevisionRow

	// input is the text typed; prompt says what it is for.
	prompt, input string
	// completions are offered by tab: images of earlier revisions.
	completions []string
	completed   int

	// problem is why the input was refused, shown until the next key.
	problem string
	// plan is what will happen, shown at the confirmation.
	plan []string
	diff []model.DiffLine
	// diffReady is set once the undo preview has come back, with
	// diffErr when it could not be read.
	diffReady bool
	diffErr   error
	// forecast is what the rollout will do, "" until it is known.
	forecast string
	// refusal, when set, is why nothing will be sent; the confirmation
	// then only closes.
	refusal string
	// node, when set, is a node dialog (cordon, drain, roll), which draws
	// and handles keys on its own (nodedialog.go).
	node *nodeDialog
}

// dialogResult is what a key did to the dialog.
type dialogResult int

const (
	dialogOpen dialogResult = iota
	dialogCancel
	dialogSend
	dialogNext // input accepted: the root checks it and prepares the plan
)

// key handles one key press inside the dialog.
func (d *dialog) key(msg tea.KeyPressMsg, km *KeyMap) dialogResult {
	d.problem = ""
	if key.Matches(msg, km.Back) {
		return dialogCancel
	}
	switch d.stage {
	case stagePickContainer:
		return d.pick(msg, km, len(d.containers), func() {
			d.req.Container = d.containers[d.cursor].Name
			d.stage = stageInput
			d.startInput()
		})
	case stagePickRevision:
		return d.pick(msg, km, len(d.revisions), func() {
			d.req.Revision = d.revisions[d.cursor].Revision
		})
	case stageInput:
		return d.typing(msg)
	case stageConfirm:
		switch msg.String() {
		case "y", "Y":
			if d.refusal != "" {
				return dialogCancel
			}
			return dialogSend
		case "n", "N", "q":
			return dialogCancel
		case "enter":
			if d.refusal != "" {
				return dialogCancel
			}
		}
	}
	return dialogOpen
}

// pick moves a cursor over n choices; enter takes the choice.
func (d *dialog) pick(msg tea.KeyPressMsg, km *KeyMap, n int, take func()) dialogResult {
	switch {
	case key.Matches(msg, km.Up):
		d.cursor = max(d.cursor-1, 0)
	case key.Matches(msg, km.Down):
		d.cursor = min(d.cursor+1, max(n-1, 0))
	case key.Matches(msg, km.Top):
		d.cursor = 0
	case key.Matches(msg, km.Bottom):
		d.cursor = max(n-1, 0)
	case key.Matches(msg, km.Select) && n > 0:
		take()
		if d.stage == stagePickRevision {
			return dialogNext
		}
	}
	return dialogOpen
}

// typing edits the input line: text, backspace, ctrl+u, tab to complete,
// enter to accept.
func (d *dialog) typing(msg tea.KeyPressMsg) dialogResult {
	switch msg.String() {
	case "enter":
		return dialogNext
	case "backspace":
		if r := []rune(d.input); len(r) > 0 {
			d.input = string(r[:len(r)-1])
		}
		d.completed = -1
		return dialogOpen
	case "ctrl+u":
		d.input, d.completed = "", -1
		return dialogOpen
	case "tab":
		d.complete()
		return dialogOpen
	}
	if msg.Text != "" {
		d.input += msg.Text
		d.completed = -1
	}
	return dialogOpen
}

// complete cycles through the earlier images that start with what was typed
// (all of them when what was typed is one of them).
func (d *dialog) complete() {
	prefix := d.input
	if d.completed >= 0 && d.completed < len(d.completions) && d.completions[d.completed] == d.input {
		prefix = ""
	}
	for i := 1; i <= len(d.completions); i++ {
		j := (d.completed + i + len(d.completions)) % len(d.completions)
		if d.completed < 0 {
			j = i - 1
		}
		if strings.HasPrefix(d.completions[j], prefix) {
			d.input, d.completed = d.completions[j], j
			return
		}
	}
}

// startInput sets the prompt and starting text for the action being built.
func (d *dialog) startInput() {
	d.completed = -1
	switch d.req.Action {
	case action.SetImage:
		d.prompt = "image for " + d.req.Container + " (tab completes from earlier revisions)"
		for _, c := range d.containers {
			if c.Name == d.req.Container {
				d.input = c.Image
			}
		}
	case action.SetEnv:
		d.prompt = "NAME=value to set, NAME- to remove, in " + d.req.Container
		d.input = ""
	case action.Scale:
		d.prompt = "replicas"
	}
}

// accept turns the input into the request, or says why it cannot.
func (d *dialog) accept() bool {
	in := d.input
	switch d.req.Action {
	case action.SetImage:
		d.req.Image = in
	case action.SetEnv:
		d.req.Env = strings.TrimSpace(in)
		if _, _, _, err := d.req.EnvChange(); err != nil {
			d.problem = err.Error()
			return false
		}
	case action.Scale:
		n, err := strconv.ParseInt(strings.TrimSpace(in), 10, 64)
		switch {
		case err != nil:
			d.problem = "replicas must be a whole number, such as 5"
			return false
		case n < 0:
			d.problem = "replicas must be 0 or more, not " + strconv.FormatInt(n, 10)
			return false
		case n > 1<<31-1:
			d.problem = strconv.FormatInt(n, 10) + " replicas is more than a deployment can have"
			return false
		}
		d.req.Replicas = int32(n)
	}
	return true
}
