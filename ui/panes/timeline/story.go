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

// told is the story the pane last told and what it told it from. The
// pane tells it for every message and every frame, and a full timeline
// of a large rollout takes a quarter of a millisecond to tell; a source
// hands the same slice back until the timeline changes (screen.Source).
type told struct {
	// first is the timeline's first entry (nil when empty). Holding it
	// keeps that slice alive, so no later copy can be allocated at its
	// address and pass for the timeline told.
	first  *cluster.TimelineEntry
	n      int
	filter filter
	story  []cluster.TimelineEntry
}

// story is the screen's timeline as the pane tells it, told again only
// when the timeline or the filter changed.
func (p *Pane) story() []cluster.TimelineEntry {
	tl := p.s.Timeline
	var first *cluster.TimelineEntry
	if len(tl) > 0 {
		first = &tl[0]
	}
	if t := p.told; t.story == nil || t.first != first || t.n != len(tl) || t.filter != p.filter {
		p.told = told{first: first, n: len(tl), filter: p.filter, story: story(tl, p.filter)}
	}
	return p.told.story
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
