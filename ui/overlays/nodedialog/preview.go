package nodedialog

import (
	"context"
	"slices"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/ui/screen"
)

// Previewed brings the drain dialog its previews.
type Previewed struct {
	nodes    []string
	opts     action.DrainOptions
	previews map[string]action.DrainPreview
	err      error
	// recheck is set for the preview y asks for before it sends.
	recheck bool
}

// preview asks what draining the dialog's nodes with its options would do.
func (d *Dialog) preview() tea.Cmd {
	o, problem := d.drainOptions()
	if problem != "" {
		return nil
	}
	d.previewFor, d.previewed = o, false
	acts, nodes := d.s.Actions, slices.Clone(d.nodes)
	return screen.Ask(func(ctx context.Context) tea.Msg {
		out := map[string]action.DrainPreview{}
		for _, n := range nodes {
			p, err := acts.PreviewDrain(ctx, n, o)
			if err != nil {
				return Previewed{nodes: nodes, opts: o, err: err}
			}
			out[n] = p
		}
		return Previewed{nodes: nodes, opts: o, previews: out}
	})
}

// takePreview shows the previews, if they are for the options in the form.
func (d *Dialog) takePreview(msg Previewed) {
	// While y re-checks, the preview shown is what the fresh one is
	// compared with.
	if d.kind != action.Drain || d.rechecking || !slices.Equal(d.nodes, msg.nodes) || !sameDrainOptions(d.previewFor, msg.opts) {
		return
	}
	d.previews, d.previewErr, d.previewed = msg.previews, "", true
	if msg.err != nil {
		d.previewErr = msg.err.Error()
	}
}

func sameDrainOptions(a, b action.DrainOptions) bool {
	ga, gb := a.GracePeriodSeconds, b.GracePeriodSeconds
	a.GracePeriodSeconds, b.GracePeriodSeconds = nil, nil
	return a == b && (ga == nil) == (gb == nil) && (ga == nil || *ga == *gb)
}
