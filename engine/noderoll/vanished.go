package noderoll

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// vanished notices the nodes that left the roll while draining without the
// roll terminating them: on a live cluster the cloud, an autoscaler or an
// operator may delete a node mid-drain. Such a node counts as replaced, so
// the roll waits the interval and validates before the next node, as after
// one of its own, and says what happened on the roll's message.
func (c *Controller) vanished(ctx context.Context, r *roll, m *memo, now time.Time) error {
	present := map[string]bool{}
	for _, n := range r.inRoll {
		present[n.Name] = true
	}
	var gone []string
	for name := range m.draining {
		if !present[name] {
			gone = append(gone, name)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	sort.Strings(gone)
	msg := fmt.Sprintf("node %s was deleted while it drained, not by this roll; the roll validates the cluster before the next node", strings.Join(gone, ", "))
	if len(r.inRoll) > 0 {
		c.env.Events.Eventf(r.inRoll[0], corev1.EventTypeWarning, "NodeDeletedMidDrain", "Group %s: %s", r.spec.Group, msg)
	}
	if err := c.setState(ctx, r, r.state, msg); err != nil {
		return err
	}
	for _, name := range gone {
		delete(m.draining, name)
	}
	m.gateFrom = now
	return nil
}
