package rollingupdate

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/upstreamcases"
)

// transcriptCase is one upstream TestUpdate case as kept in upstream-cases.json.
type transcriptCase struct {
	OldRc struct {
		Name     string `json:"name"`
		Replicas int32  `json:"replicas"`
	} `json:"oldRc"`
	NewRc struct {
		Name     string `json:"name"`
		Replicas int32  `json:"replicas"`
		Desired  int32  `json:"desiredReplicasAnnotation"`
	} `json:"newRc"`
	NewRcExists    bool               `json:"newRcExists"`
	MaxUnavailable intstr.IntOrString `json:"maxUnavailable"`
	MaxSurge       intstr.IntOrString `json:"maxSurge"`
	Script         []struct {
		Type     string `json:"type"`
		NewReady int32  `json:"newReady"`
		To       int32  `json:"to"`
		Noop     bool   `json:"noop"`
	} `json:"readinessAndScaleScript"`
}

// TestUpstreamTranscripts replays every legacy TestUpdate case through the
// updater's arithmetic and compares what it prints with upstream's output,
// and every scale call with the script's expected targets.
func TestUpstreamTranscripts(t *testing.T) {
	cases := upstreamcases.ByGroup(t, "legacy_rolling_update")
	if len(cases) != 29 {
		t.Fatalf("want the 29 TestUpdate cases, got %d", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name(), func(t *testing.T) {
			var in transcriptCase
			var want struct {
				Output string `json:"output"`
			}
			c.Decode(t, &in, &want)
			got, err := replay(in)
			if err != nil {
				t.Fatalf("%v\noutput so far:\n%s", err, got)
			}
			if got != want.Output {
				t.Errorf("output differs\n got:\n%s\nwant:\n%s", got, want.Output)
			}
		})
	}
}

// replay drives Next the way a driver does, answering availability from the
// script's 'down' entries in order and checking each scale against the
// script's targets.
func replay(in transcriptCase) (string, error) {
	var out strings.Builder
	oldName, nextName := in.OldRc.Name, in.NewRc.Name
	oldSize, nextSize := in.OldRc.Replicas, in.NewRc.Replicas
	out.WriteString(startLine(nextName, in.NewRcExists))
	l, err := NewLimits(in.NewRc.Desired, oldSize, in.MaxSurge, in.MaxUnavailable)
	if err != nil {
		return out.String(), err
	}
	out.WriteString(planLine(l, oldName, nextName, oldSize, nextSize))
	var ups, downs []int
	for i, s := range in.Script {
		if s.Type == "up" {
			ups = append(ups, i)
		} else {
			downs = append(downs, i)
		}
	}
	for steps := 0; ; steps++ {
		if steps > 1000 {
			return out.String(), fmt.Errorf("no end after %d steps", steps)
		}
		var pending int = -1
		d, err := Next(l, oldSize, nextSize, func() (int32, error) {
			if len(downs) == 0 {
				return 0, fmt.Errorf("availability asked more often than the script answers (old %d, next %d)", oldSize, nextSize)
			}
			pending, downs = downs[0], downs[1:]
			return in.Script[pending].NewReady, nil
		})
		if err != nil {
			return out.String(), err
		}
		switch d.Move {
		case Complete:
			return out.String(), nil
		case ScaleNext:
			if len(ups) == 0 {
				return out.String(), fmt.Errorf("unexpected scale-up to %d", d.To)
			}
			if exp := in.Script[ups[0]].To; exp != d.To {
				return out.String(), fmt.Errorf("scale-up to %d, upstream scaled to %d", d.To, exp)
			}
			ups = ups[1:]
			nextSize = d.To
			out.WriteString(scaleLine(nextName, "up", d.To))
		case ScaleOld:
			if s := in.Script[pending]; s.Noop || s.To != d.To {
				return out.String(), fmt.Errorf("scale-down to %d, upstream: %+v", d.To, s)
			}
			oldSize = d.To
			out.WriteString(scaleLine(oldName, "down", d.To))
		case Hold:
			if pending >= 0 && !in.Script[pending].Noop {
				return out.String(), fmt.Errorf("held, upstream scaled down to %d", in.Script[pending].To)
			}
		}
	}
}
