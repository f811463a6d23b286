package nodedialog

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/ui/screen"
)

// previewChanges says how what a drain would do moved between the preview
// shown and a fresh one: the node's cordon and drain state, and the pods
// it would evict. The budgets' counts are left out: they move with every
// pod that becomes ready, and the drain waits for them anyway.
func previewChanges(nodes []string, shown, now map[string]action.DrainPreview) []string {
	var out []string
	for _, n := range nodes {
		was, is := shown[n], now[n]
		out = append(out, stateChanges(n, was.Cordoned, is.Cordoned, was.State, is.State)...)
		var more, fewer []string
		for _, p := range is.Evict {
			if !slices.Contains(was.Evict, p) {
				more = append(more, p)
			}
		}
		for _, p := range was.Evict {
			if !slices.Contains(is.Evict, p) {
				fewer = append(fewer, p)
			}
		}
		if len(more) > 0 {
			out = append(out, "the drain of node "+n+" would now also evict "+strings.Join(more, ", "))
		}
		if len(fewer) > 0 {
			out = append(out, strings.Join(fewer, ", ")+" left node "+n)
		}
	}
	return out
}

// recheckDrain previews the drain's nodes again, from the API server as it
// is now, for rechecked to compare with the preview shown.
func (d *Dialog) recheckDrain() tea.Cmd {
	d.rechecking = true
	acts, nodes, o := d.s.Actions, slices.Clone(d.nodes), d.drain
	return screen.Ask(func(ctx context.Context) tea.Msg {
		msg := Previewed{nodes: nodes, opts: o, previews: map[string]action.DrainPreview{}, recheck: true}
		for _, n := range nodes {
			p, err := acts.PreviewDrain(ctx, n, o)
			if err != nil {
				msg.err = err
				return msg
			}
			msg.previews[n] = p
		}
		return msg
	})
}

// rechecked sends the drain when the fresh preview does what the one shown
// said; otherwise it shows the fresh one, sends nothing and says what
// changed.
func (d *Dialog) rechecked(msg Previewed) (screen.Overlay, tea.Cmd) {
	if !d.rechecking || !slices.Equal(d.nodes, msg.nodes) {
		return d, nil
	}
	d.rechecking = false
	var changed []string
	switch {
	case msg.err != nil:
		d.previewErr = msg.err.Error()
		d.moved = "nothing sent: the drain could not be previewed again — " + msg.err.Error()
		return d, nil
	case !d.previewed || d.previewErr != "":
		changed = []string{"the preview had not been read"}
	default:
		changed = previewChanges(d.nodes, d.previews, msg.previews)
	}
	if len(changed) == 0 {
		return d.send()
	}
	d.previews, d.previewFor, d.previewErr, d.previewed = msg.previews, msg.opts, "", true
	d.moved = "nothing sent: " + strings.Join(changed, "; ") + " since this was shown — read the preview again; y drains as it now says"
	return d, nil
}
