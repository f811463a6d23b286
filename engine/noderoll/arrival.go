package noderoll

import (
	"time"

	"rollscope/model"
)

// requestArrival bounds how long a new roll waits for its request to reach
// every node in the controller's cache.
const requestArrival = 10 * time.Second

// requestArriving reports whether the cache holds only part of a roll that
// has not started yet. Request writes the roll on the outdated nodes one at
// a time, and on a live cluster the controller can sync between those writes
// reaching its cache: going on would take the nodes still on their way for
// up-to-date ones — no first node alone, no taint on them, the wrong nodes
// detached for a surge. A request older than requestArrival is taken as it
// is (Request failed half-way and said so).
func requestArriving(r *roll, now time.Time) bool {
	if len(r.inRoll) >= r.spec.Count {
		return false
	}
	for _, n := range r.inRoll {
		if n.Annotations[model.RollNodeAnnotation] != "" || model.NodeDetached(n) {
			return false // under way: nodes missing were terminated
		}
	}
	requested, err := time.Parse(time.RFC3339Nano, r.spec.ID)
	if err != nil || now.Sub(requested) >= requestArrival {
		return false
	}
	for _, n := range r.nodes {
		_, outdated := n.Annotations[model.NeedsUpdateAnnotation]
		_, inRoll := n.Annotations[model.RollAnnotation]
		if outdated && !inRoll {
			return true
		}
	}
	return false
}
