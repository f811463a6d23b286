package ui

import (
	"context"
	"fmt"
	"strings"
)

// summary names the dialog's request for the toast and the timeline, and
// the object the timeline files it under.
func (d *nodeDialog) summary() (string, string) {
	nodes := strings.Join(d.nodes, ", ")
	object := "node/" + strings.Join(d.nodes, ",")
	switch d.kind {
	case nodeCordon:
		return "cordon " + nodes, object
	case nodeUncordon:
		return "uncordon " + nodes, object
	case nodeDrain:
		return "drain " + nodes, object
	case nodeRoll:
		return "roll group " + d.group, "nodegroup/" + d.group
	case nodeStopRoll:
		return "stop the roll of group " + d.group, "nodegroup/" + d.group
	}
	return "node action", object
}

// send sends the request. Requests on several nodes go one node at a time;
// when one fails, the error says which nodes were done and which were left
// untouched, so nothing is half-done without saying so.
func (d *nodeDialog) send(ctx context.Context, acts NodeActions) (string, error) {
	switch d.kind {
	case nodeRoll:
		if err := acts.Roll(ctx, d.roll); err != nil {
			return "", err
		}
		return "requested", nil
	case nodeStopRoll:
		if err := acts.SteerRoll(ctx, d.group, RollStop); err != nil {
			return "", err
		}
		return "stopped; drained nodes stay cordoned", nil
	}
	each := map[nodeDialogKind]func(context.Context, string) error{
		nodeCordon:   acts.Cordon,
		nodeUncordon: acts.Uncordon,
		nodeDrain:    func(ctx context.Context, n string) error { return acts.Drain(ctx, n, d.drain) },
	}[d.kind]
	if each == nil {
		return "", fmt.Errorf("unknown node action %d", d.kind)
	}
	for i, n := range d.nodes {
		if err := each(ctx, n); err != nil {
			if i == 0 {
				return "", err
			}
			left := ""
			if rest := d.nodes[i+1:]; len(rest) > 0 {
				left = "; not sent for " + strings.Join(rest, ", ")
			}
			return "", fmt.Errorf("%w — done for %s%s", err, strings.Join(d.nodes[:i], ", "), left)
		}
	}
	if d.kind == nodeDrain {
		return "requested — the Nodes pane shows its progress", nil
	}
	return "ok", nil
}
