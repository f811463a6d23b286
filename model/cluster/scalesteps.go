package cluster

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"rollscope/model"
)

// StepsOnce is the timeline with every ReplicaSet scaling step told once:
// a ScalingReplicaSet event that repeats a scale line of the same step is
// left out. A step is what identifies it — the ReplicaSet and its sizes
// from and to — not the second it happened in: an event's time is cut to
// the second and the console sees the scale a moment later (or, on the
// embedded cluster's clock at speed, several steps share a second). Each
// scale line stands for one event, the nearest in time of its step, so a
// ReplicaSet taken the same way again later keeps both, and an event whose
// step the watch folded into a larger scale line stays.
func StepsOnce(tl []TimelineEntry) []TimelineEntry {
	// A ReplicaSet's scale lines by the size they reached, each line
	// leading to the next of its kind: an event can repeat only a line of
	// its own size, and a full timeline of a large rollout holds hundreds
	// of lines of each ReplicaSet, which each event would otherwise be
	// compared with.
	type reached struct {
		rs string
		to int64
	}
	first := make(map[reached]int, len(tl)/2)
	steps := make([]scaleStep, len(tl))
	next := make([]int, len(tl))
	for i := len(tl) - 1; i >= 0; i-- {
		s, ok := scaleLineStep(tl[i])
		if !ok {
			continue
		}
		steps[i], next[i] = s, -1
		k := reached{s.rs, s.to}
		if j, ok := first[k]; ok {
			next[i] = j
		}
		first[k] = i
	}
	type pair struct {
		event, line int
		apart       time.Duration
	}
	var pairs []pair
	for i, e := range tl {
		s, ok := scaleEventStep(e)
		if !ok {
			continue
		}
		j, ok := first[reached{s.rs, s.to}]
		for ; ok && j >= 0; j = next[j] {
			if s.repeats(steps[j]) {
				pairs = append(pairs, pair{i, j, absDuration(e.Time.Sub(tl[j].Time))})
			}
		}
	}
	if len(pairs) == 0 {
		return tl
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(a.apart, b.apart) })
	told, used := make([]bool, len(tl)), make([]bool, len(tl))
	n := 0
	for _, p := range pairs {
		if !told[p.event] && !used[p.line] {
			told[p.event], used[p.line] = true, true
			n++
		}
	}
	out := make([]TimelineEntry, 0, len(tl)-n)
	for i, e := range tl {
		if !told[i] {
			out = append(out, e)
		}
	}
	return out
}

// scaleStep is one ReplicaSet scaling step; from is -1 when an event does
// not say (the deployment controller's events before Kubernetes 1.27 named
// only the size reached).
type scaleStep struct {
	rs       string
	from, to int64
}

// repeats reports whether event step s tells the same step as scale line
// l.
func (s scaleStep) repeats(l scaleStep) bool {
	return s.rs == l.rs && s.to == l.to && (s.from < 0 || s.from == l.from)
}

// The steps are read from the entries' text by hand: the console tells
// the timeline's story on every refresh, and matching each entry against
// regular expressions was a seventh of a live console's CPU at 10,000
// pods. What they read is what these expressions match (the tests hold
// them to it):
//
//	scale lines (noteScale):  ^replicaset/(\S+) scaled from (\d+) to (\d+)$
//	                          ^replicaset/(\S+) created with (\d+) replicas?$
//	the deployment controller's ScalingReplicaSet events, as noteEvent files
//	them, possibly combined by the recorder or counted:
//	^ScalingReplicaSet: (?:\(combined from similar events\): )?Scaled (?:up|down) replica set (\S+) (?:from (\d+) )?to (\d+)

func scaleLineStep(e TimelineEntry) (scaleStep, bool) {
	if e.Kind != TimelineScale {
		return scaleStep{}, false
	}
	rest, ok := strings.CutPrefix(e.Message, "replicaset/")
	if !ok {
		return scaleStep{}, false
	}
	rs, rest, ok := word(rest)
	if !ok {
		return scaleStep{}, false
	}
	if rest, ok := strings.CutPrefix(rest, " scaled from "); ok {
		from, rest, ok1 := digits(rest)
		rest, ok2 := strings.CutPrefix(rest, " to ")
		to, rest, ok3 := digits(rest)
		if ok1 && ok2 && ok3 && rest == "" {
			return scaleStep{rs: rs, from: atoi(from), to: atoi(to)}, true
		}
		return scaleStep{}, false
	}
	if rest, ok := strings.CutPrefix(rest, " created with "); ok {
		to, rest, ok := digits(rest)
		if ok && (rest == " replica" || rest == " replicas") {
			return scaleStep{rs: rs, from: 0, to: atoi(to)}, true
		}
	}
	return scaleStep{}, false
}

func scaleEventStep(e TimelineEntry) (scaleStep, bool) {
	if e.Kind != TimelineEvent {
		return scaleStep{}, false
	}
	rest, ok := strings.CutPrefix(e.Message, model.EventScalingReplicaSet+": ")
	if !ok {
		return scaleStep{}, false
	}
	rest, _ = strings.CutPrefix(rest, "(combined from similar events): ")
	if r, ok := strings.CutPrefix(rest, "Scaled up replica set "); ok {
		rest = r
	} else if r, ok := strings.CutPrefix(rest, "Scaled down replica set "); ok {
		rest = r
	} else {
		return scaleStep{}, false
	}
	rs, rest, ok := word(rest)
	if !ok {
		return scaleStep{}, false
	}
	s := scaleStep{rs: rs, from: -1}
	if r, ok := strings.CutPrefix(rest, " from "); ok {
		if from, r, ok := digits(r); ok && strings.HasPrefix(r, " to ") {
			s.from, rest = atoi(from), r
		}
	}
	rest, ok = strings.CutPrefix(rest, " to ")
	if !ok {
		return scaleStep{}, false
	}
	to, _, ok := digits(rest)
	if !ok {
		return scaleStep{}, false
	}
	s.to = atoi(to)
	return s, true
}

// word is s's leading run of non-space characters (\S+) and what follows
// it; false when s starts with a space or is empty.
func word(s string) (w, rest string, ok bool) {
	i := strings.IndexFunc(s, isSpace)
	if i < 0 {
		i = len(s)
	}
	return s[:i], s[i:], i > 0
}

// isSpace is what \s matches in Go's regular expressions.
func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' }

// digits is s's leading run of ASCII digits (\d+) and what follows it.
func digits(s string) (d, rest string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:], i > 0
}

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
