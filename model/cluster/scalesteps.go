package cluster

import (
	"cmp"
	"regexp"
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
	lines := map[string][]int{} // ReplicaSet → its scale lines
	steps := make([]scaleStep, len(tl))
	for i, e := range tl {
		s, ok := scaleLineStep(e)
		if ok {
			steps[i] = s
			lines[s.rs] = append(lines[s.rs], i)
		}
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
		for _, j := range lines[s.rs] {
			if s.repeats(steps[j]) {
				pairs = append(pairs, pair{i, j, absDuration(e.Time.Sub(tl[j].Time))})
			}
		}
	}
	if len(pairs) == 0 {
		return tl
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(a.apart, b.apart) })
	told, used := map[int]bool{}, map[int]bool{}
	for _, p := range pairs {
		if !told[p.event] && !used[p.line] {
			told[p.event], used[p.line] = true, true
		}
	}
	out := make([]TimelineEntry, 0, len(tl)-len(told))
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

var (
	// The scale lines noteScale writes.
	scaledLine  = regexp.MustCompile(`^replicaset/(\S+) scaled from (\d+) to (\d+)$`)
	createdLine = regexp.MustCompile(`^replicaset/(\S+) created with (\d+) replicas?$`)
	// The deployment controller's ScalingReplicaSet events, as noteEvent
	// files them, possibly combined by the recorder or counted.
	scalingEvent = regexp.MustCompile(`^` + model.EventScalingReplicaSet + `: (?:\(combined from similar events\): )?Scaled (?:up|down) replica set (\S+) (?:from (\d+) )?to (\d+)`)
)

func scaleLineStep(e TimelineEntry) (scaleStep, bool) {
	if e.Kind != TimelineScale {
		return scaleStep{}, false
	}
	if m := scaledLine.FindStringSubmatch(e.Message); m != nil {
		return scaleStep{rs: m[1], from: atoi(m[2]), to: atoi(m[3])}, true
	}
	if m := createdLine.FindStringSubmatch(e.Message); m != nil {
		return scaleStep{rs: m[1], from: 0, to: atoi(m[2])}, true
	}
	return scaleStep{}, false
}

func scaleEventStep(e TimelineEntry) (scaleStep, bool) {
	// Most events are not scaling steps: no expression for them.
	if e.Kind != TimelineEvent || !strings.HasPrefix(e.Message, model.EventScalingReplicaSet+": ") {
		return scaleStep{}, false
	}
	m := scalingEvent.FindStringSubmatch(e.Message)
	if m == nil {
		return scaleStep{}, false
	}
	s := scaleStep{rs: m[1], from: -1, to: atoi(m[3])}
	if m[2] != "" {
		s.from = atoi(m[2])
	}
	return s, true
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
