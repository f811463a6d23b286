package rolloutdialog

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/ui/draw"
)

// typing edits the input line: text, backspace, ctrl+u, tab to complete;
// it reports whether enter accepted the line.
func (d *Dialog) typing(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "enter":
		return true
	case "backspace":
		if r := []rune(d.input); len(r) > 0 {
			d.input = string(r[:len(r)-1])
		}
		d.completed = -1
		return false
	case "ctrl+u":
		d.input, d.completed = "", -1
		return false
	case "tab":
		d.complete()
		return false
	}
	if msg.Text != "" {
		d.input += msg.Text
		d.completed = -1
	}
	return false
}

// complete cycles through the earlier images that start with what was typed
// (all of them when what was typed is one of them).
func (d *Dialog) complete() {
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
func (d *Dialog) startInput() {
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
		// The count now is beside the field, not in it: digits typed
		// after it made 25 and 30 into 2530, which y would have sent.
		d.prompt = "replicas (now " + draw.Itoa(d.s.Rollout.Replicas) + ")"
		d.input = ""
	}
}

// accept turns the input into the request, or says why it cannot.
func (d *Dialog) accept() bool {
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
		n, err := action.ParseReplicas(in)
		if err != nil {
			d.problem = err.Error()
			return false
		}
		d.req.Replicas = n
	}
	return true
}
