package timeline

import (
	"strings"

	"rollscope/model/cluster"
)

// filter is what the Timeline pane shows; f cycles through them.
type filter int

const (
	showAll filter = iota
	showActions
	showScaling
	showWarnings
	filterCount
)

func (f filter) String() string {
	return [...]string{"all", "actions", "scaling", "warnings"}[f]
}

func (f filter) keeps(e cluster.TimelineEntry) bool {
	switch f {
	case showActions:
		return e.Kind == cluster.TimelineAction
	case showScaling:
		return e.Kind == cluster.TimelineScale
	case showWarnings:
		return e.Warning
	}
	return true
}

// story is the timeline as the pane tells it: every step once, not twice
// (cluster.StepsOnce), with what the filter keeps.
func story(tl []cluster.TimelineEntry, f filter) []cluster.TimelineEntry {
	steps := cluster.StepsOnce(tl)
	out := make([]cluster.TimelineEntry, 0, len(steps))
	for _, e := range steps {
		if f.keeps(e) {
			out = append(out, e)
		}
	}
	return out
}

// message is an entry's text without the event recorder's
// "(combined from similar events)" aside, which says only that it repeated.
func message(e cluster.TimelineEntry) string {
	if m, ok := strings.CutSuffix(e.Message, " (combined from similar events)"); ok {
		return m + " (repeated)"
	}
	if m, ok := strings.CutPrefix(e.Message, "(combined from similar events): "); ok {
		return m + " (repeated)"
	}
	return e.Message
}
