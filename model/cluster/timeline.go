package cluster

import (
	"slices"
)

// timelineLimit is how many entries a deployment's timeline keeps; older
// ones are forgotten, so a long-running console's memory stays flat.
const timelineLimit = 1000

// timeline is one deployment's entries in time order. It grows to twice the
// limit before it is cut back, so that trimming costs nothing per entry.
type timeline struct {
	entries []TimelineEntry
	// shown is last()'s copy, handed out again until the entries change
	// (every change sets it to nil): a console reads the timeline on every
	// refresh and tells its story only when the slice it gets is new.
	shown []TimelineEntry
	// abortSeen is the highest aborted revision the deployment's
	// annotations have named (see noteAbort).
	abortSeen int64
	// podWarnings are the Warning events of its pods, by reason.
	podWarnings podWarnings
}

// add files e by its time; entries with equal times keep their arrival order.
// Events carry their own timestamps, so one listed late lands where it
// happened rather than at the end.
func (t *timeline) add(e TimelineEntry) {
	i := len(t.entries)
	for i > 0 && t.entries[i-1].Time.After(e.Time) {
		i--
	}
	t.entries, t.shown = slices.Insert(t.entries, i, e), nil
	if len(t.entries) >= 2*timelineLimit {
		t.entries = slices.Clone(t.entries[len(t.entries)-timelineLimit:])
	}
}

// last is a copy of the newest timelineLimit entries, oldest first: the
// same copy until the entries change, which its readers never change.
func (t *timeline) last() []TimelineEntry {
	if t.shown == nil {
		t.shown = slices.Clone(t.entries[max(0, len(t.entries)-timelineLimit):])
	}
	return t.shown
}

// Timeline is what happened to the deployment, oldest first: its
// ReplicaSets' scaling, its condition changes, events about it and its
// ReplicaSets, its pods' Warning events (one line per reason, with counts)
// and actions taken from the console. It keeps the last
// timelineLimit entries; an unknown deployment has none. The same slice
// comes back until the timeline changes: the caller must not change it.
func (c *Cluster) Timeline(namespace, name string) []TimelineEntry {
	c.mu.Lock() // a read that may keep its copy (timeline.shown)
	defer c.mu.Unlock()
	t := c.timelines[objectKey(namespace, name)]
	if t == nil {
		return nil
	}
	return t.last()
}

// AddAction records an action taken from the console (a pause, an undo, a
// scale) on the deployment's timeline. The entry is marked TimelineAction
// whatever kind e says. An abort the watch has already noted is told once,
// in the console's words.
func (c *Cluster) AddAction(namespace, name string, e TimelineEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.Kind = TimelineAction
	key := objectKey(namespace, name)
	if t := c.timelines[key]; t != nil {
		t.replaceSeenAbort(e)
	}
	c.note(key, e)
}

func (c *Cluster) note(deployment string, e TimelineEntry) {
	t := c.timelines[deployment]
	if t == nil {
		t = &timeline{}
		c.timelines[deployment] = t
	}
	t.add(e)
}
