package noderoll

import (
	"context"
	"encoding/json"
	"fmt"
	"rollscope/model"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
)

// ContinueOrRestart is the console's n on a group: it continues the
// group's active roll (Continue), or starts a stopped or failed one again
// with the settings it was requested with, kept in its annotation — the
// way running kops rolling-update again takes up the nodes still outdated.
// now stamps the new roll.
func ContinueOrRestart(ctx context.Context, c kubernetes.Interface, group string, now time.Time) error {
	o, ended, err := endedRoll(ctx, c, group)
	if err != nil {
		return err
	}
	if ended {
		return Request(ctx, c, group, o, now)
	}
	return Continue(ctx, c, group)
}

// endedRoll finds a stopped or failed roll of group and the options it was
// requested with; ended is false when the group has no roll or an active
// one.
func endedRoll(ctx context.Context, c kubernetes.Interface, group string) (o Options, ended bool, err error) {
	sel := labels.SelectorFromSet(labels.Set{model.NodeGroupLabel: group}).String()
	nodes, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return o, false, fmt.Errorf("cannot continue the roll of group %q: list its nodes: %w", group, err)
	}
	for _, n := range nodes.Items {
		raw, ok := n.Annotations[model.RollAnnotation]
		if !ok {
			continue
		}
		switch n.Annotations[model.RollStateAnnotation] {
		case model.RollStopped, model.RollFailed:
		default:
			return o, false, nil
		}
		// The annotation holds the roll's options beside what it
		// started from; the options are all a new request needs.
		if err := json.Unmarshal([]byte(raw), &o); err != nil {
			return o, true, fmt.Errorf("cannot continue the roll of group %q: node %s's %s is not valid JSON (start a new roll with D): %w",
				group, n.Name, model.RollAnnotation, err)
		}
		return o, true, nil
	}
	return o, false, nil
}
