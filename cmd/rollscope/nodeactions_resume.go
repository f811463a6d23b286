package main

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
)

// resumeEnded starts a stopped or failed roll of group again with the
// settings it was requested with (kept in its annotation), the way running
// kops rolling-update again takes up the nodes still outdated. It reports
// whether the group had such a roll; an active roll is left to Continue.
func (a *nodeActions) resumeEnded(ctx context.Context, group string) (bool, error) {
	sel := labels.SelectorFromSet(labels.Set{nodegroup.LabelGroup: group}).String()
	nodes, err := a.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return false, fmt.Errorf("cannot continue the roll of group %q: list its nodes: %w", group, err)
	}
	for _, n := range nodes.Items {
		raw, ok := n.Annotations[noderoll.AnnotationRoll]
		if !ok {
			continue
		}
		switch n.Annotations[noderoll.AnnotationState] {
		case noderoll.StateStopped, noderoll.StateFailed:
		default:
			return false, nil
		}
		// The annotation holds the roll's options beside what it
		// started from; the options are all a new request needs.
		var o noderoll.Options
		if err := json.Unmarshal([]byte(raw), &o); err != nil {
			return true, fmt.Errorf("cannot continue the roll of group %q: node %s's %s is not valid JSON (start a new roll with D): %w",
				group, n.Name, noderoll.AnnotationRoll, err)
		}
		return true, noderoll.Request(ctx, a.client, group, o, a.now())
	}
	return false, nil
}
