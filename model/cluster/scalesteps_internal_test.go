package cluster

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"rollscope/model"
)

// The expressions the scale steps were read with before they were read by
// hand: the hand reading must match them on every message.
var (
	scaledLine   = regexp.MustCompile(`^replicaset/(\S+) scaled from (\d+) to (\d+)$`)
	createdLine  = regexp.MustCompile(`^replicaset/(\S+) created with (\d+) replicas?$`)
	scalingEvent = regexp.MustCompile(`^` + model.EventScalingReplicaSet + `: (?:\(combined from similar events\): )?Scaled (?:up|down) replica set (\S+) (?:from (\d+) )?to (\d+)`)
)

func byExpression(e TimelineEntry) (scaleStep, bool) {
	switch e.Kind {
	case TimelineScale:
		if m := scaledLine.FindStringSubmatch(e.Message); m != nil {
			return scaleStep{rs: m[1], from: atoi(m[2]), to: atoi(m[3])}, true
		}
		if m := createdLine.FindStringSubmatch(e.Message); m != nil {
			return scaleStep{rs: m[1], from: 0, to: atoi(m[2])}, true
		}
	case TimelineEvent:
		if m := scalingEvent.FindStringSubmatch(e.Message); m != nil {
			s := scaleStep{rs: m[1], from: -1, to: atoi(m[3])}
			if m[2] != "" {
				s.from = atoi(m[2])
			}
			return s, true
		}
	}
	return scaleStep{}, false
}

func byHand(e TimelineEntry) (scaleStep, bool) {
	if s, ok := scaleLineStep(e); ok {
		return s, true
	}
	return scaleEventStep(e)
}

var stepMessages = []string{
	"replicaset/web-7b7d scaled from 3 to 5",
	"replicaset/web-7b7d scaled from 30000 to 22500",
	"replicaset/web-7b7d created with 1 replica",
	"replicaset/web-7b7d created with 7 replicas",
	"replicaset/web-7b7d created with 7 replicass",
	"replicaset/web-7b7d scaled from 3 to 5 ",
	"replicaset/web-7b7d scaled from 3 to x",
	"replicaset/ scaled from 3 to 5",
	"replicaset/web\t7b7d scaled from 3 to 5",
	"replicaset/web-7b7d  scaled from 3 to 5",
	"replicaset/web-7b7d scaled from to 5",
	"replicaset/web-7b7d scaled from 99999999999999999999 to 5",
	"deployment/web scaled from 3 to 5",
	"ScalingReplicaSet: Scaled up replica set web-7b7d from 2 to 4",
	"ScalingReplicaSet: Scaled down replica set web-7b7d to 0",
	"ScalingReplicaSet: Scaled up replica set web-7b7d to 4 (x3)",
	"ScalingReplicaSet: (combined from similar events): Scaled up replica set web-7b7d from 2 to 4",
	"ScalingReplicaSet: Scaled up replica set web-7b7d from x to 4",
	"ScalingReplicaSet: Scaled up replica set web-7b7d from 2 x to 4",
	"ScalingReplicaSet: Scaled up replica set web-7b7d from 2 to",
	"ScalingReplicaSet: Scaled sideways replica set web-7b7d to 4",
	"ScalingReplicaSet: Scaled up replica set  to 4",
	"ScalingReplicaSet: Scaled up replica set web-7b7d\tto 4",
	"ScalingReplicaSet: Scaled up replica set web-7b7d to 4to 5",
	"SuccessfulCreate: Created pod: web-7b7d-x",
	"",
}

// Read by hand, every message gives the step the expressions give, or
// none when they give none: as a scale line and as an event.
func TestScaleStepsReadByHandAsTheExpressionsRead(t *testing.T) {
	for _, msg := range stepMessages {
		for _, kind := range []TimelineKind{TimelineScale, TimelineEvent, TimelineAction} {
			e := TimelineEntry{Kind: kind, Message: msg}
			want, wantOK := byExpression(e)
			got, ok := byHand(e)
			if got != want || ok != wantOK {
				t.Errorf("%s %q: by hand %+v %v, by the expressions %+v %v", strconv.Itoa(int(kind)), msg, got, ok, want, wantOK)
			}
		}
	}
}

func FuzzScaleStepsReadByHandAsTheExpressionsRead(f *testing.F) {
	for _, msg := range stepMessages {
		f.Add(msg)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		for _, kind := range []TimelineKind{TimelineScale, TimelineEvent} {
			e := TimelineEntry{Kind: kind, Message: msg}
			want, wantOK := byExpression(e)
			if got, ok := byHand(e); got != want || ok != wantOK {
				t.Errorf("%q: by hand %+v %v, by the expressions %+v %v", msg, got, ok, want, wantOK)
			}
		}
	})
}

func BenchmarkScaleStepOfAScaleLine(b *testing.B) {
	e := TimelineEntry{Kind: TimelineScale, Message: "replicaset/web-7b7d5974f6 scaled from 22500 to 22475"}
	b.Run("by hand", func(b *testing.B) {
		for b.Loop() {
			byHand(e)
		}
	})
	b.Run("by expression", func(b *testing.B) {
		for b.Loop() {
			byExpression(e)
		}
	})
}

// stepsOncePairwise is StepsOnce read from its definition, every event
// beside every scale line: again and again, the nearest event and line of
// one step not yet paired (the earlier event, then the earlier line, when
// as near) are paired, and the paired events left out.
func stepsOncePairwise(tl []TimelineEntry) []TimelineEntry {
	told, used := map[int]bool{}, map[int]bool{}
	for {
		best, bestLine, apart := -1, -1, time.Duration(0)
		for i, e := range tl {
			s, ok := scaleEventStep(e)
			for j, l := range tl {
				ls, isLine := scaleLineStep(l)
				if !ok || !isLine || told[i] || used[j] || !s.repeats(ls) {
					continue
				}
				if d := absDuration(e.Time.Sub(l.Time)); best < 0 || d < apart {
					best, bestLine, apart = i, j, d
				}
			}
		}
		if best < 0 {
			break
		}
		told[best], used[bestLine] = true, true
	}
	var out []TimelineEntry
	for i, e := range tl {
		if !told[i] {
			out = append(out, e)
		}
	}
	return out
}

// Timelines where the same steps come back again and again (a ReplicaSet
// scaled between a few sizes, events with and without their "from", late
// and early, folded lines): StepsOnce tells each exactly as comparing every
// event with every line of its ReplicaSet does.
func TestStepsOnceAsComparingEveryEventWithEveryLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 35))
	at := time.Date(2026, 12, 6, 22, 0, 0, 0, time.UTC)
	for round := range 300 {
		var tl []TimelineEntry
		for range rng.IntN(80) {
			rs := []string{"web-a", "web-b", "web-c"}[rng.IntN(3)]
			from, to := int64(rng.IntN(4)), int64(rng.IntN(4))
			when := at.Add(time.Duration(rng.IntN(20_000)) * time.Millisecond)
			switch rng.IntN(4) {
			case 0:
				tl = append(tl, TimelineEntry{Time: when, Kind: TimelineScale, Message: "replicaset/" + rs + " scaled from " + strconv.FormatInt(from, 10) + " to " + strconv.FormatInt(to, 10)})
			case 1:
				tl = append(tl, TimelineEntry{Time: when, Kind: TimelineScale, Message: "replicaset/" + rs + " created with " + strconv.FormatInt(to, 10) + " replicas"})
			case 2:
				tl = append(tl, TimelineEntry{Time: when, Kind: TimelineEvent, Message: model.EventScalingReplicaSet + ": Scaled up replica set " + rs + " from " + strconv.FormatInt(from, 10) + " to " + strconv.FormatInt(to, 10)})
			default:
				tl = append(tl, TimelineEntry{Time: when, Kind: TimelineEvent, Message: model.EventScalingReplicaSet + ": Scaled down replica set " + rs + " to " + strconv.FormatInt(to, 10)})
			}
		}
		got, want := StepsOnce(tl), stepsOncePairwise(tl)
		if len(got) != len(want) || !slices.Equal(got, want) {
			t.Fatalf("round %d: StepsOnce kept %d entries, the pairwise reading %d:\n%v\n%v", round, len(got), len(want), got, want)
		}
	}
}
