package cluster

import (
	"regexp"
	"strconv"
	"testing"

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
