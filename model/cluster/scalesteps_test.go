package cluster_test

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// sec is t0 plus s seconds.
func sec(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func scaled(at time.Time, msg string) cluster.TimelineEntry {
	return cluster.TimelineEntry{Time: at, Kind: cluster.TimelineScale, Object: "replicaset/" + strings.Fields(msg)[0], Message: "replicaset/" + msg}
}

func scalingEvent(at time.Time, msg string) cluster.TimelineEntry {
	return cluster.TimelineEntry{Time: at, Kind: cluster.TimelineEvent, Object: "deployment/web", Message: "ScalingReplicaSet: " + msg}
}

// Every step is told once, matched by what identifies it — the ReplicaSet
// and its sizes from and to — whatever second the event's time was cut to
// and however many steps share a second.
func TestStepsOnceMatchesTheStepNotTheSecond(t *testing.T) {
	cases := []struct {
		name string
		tl   []cluster.TimelineEntry
		// kept are the events StepsOnce keeps, in order.
		kept []string
	}{{
		name: "the event's time is cut to the second the console saw the scale after",
		tl: []cluster.TimelineEntry{
			scalingEvent(sec(0), "Scaled up replica set web-a from 3 to 5"),
			scaled(sec(1.05), "web-a scaled from 3 to 5"),
		},
	}, {
		name: "several steps in one second (the embedded clock at speed), one of them without a scale line",
		tl: []cluster.TimelineEntry{
			// web-c was listed at this size already: its step has no line.
			scalingEvent(sec(4), "Scaled up replica set web-c from 0 to 1"),
			scalingEvent(sec(4), "Scaled up replica set web-b from 0 to 2"),
			scalingEvent(sec(4), "Scaled down replica set web-a from 4 to 3"),
			scaled(sec(4.2), "web-b created with 2 replicas"),
			scaled(sec(4.3), "web-a scaled from 4 to 3"),
		},
		kept: []string{"web-c from 0 to 1"},
	}, {
		name: "steps the watch folded into one scale line are each told by their event",
		tl: []cluster.TimelineEntry{
			scalingEvent(sec(7), "Scaled up replica set web-a from 3 to 5"),
			scalingEvent(sec(7), "Scaled up replica set web-a from 5 to 7"),
			scaled(sec(7.4), "web-a scaled from 3 to 7"),
		},
		kept: []string{"web-a from 3 to 5", "web-a from 5 to 7"},
	}, {
		name: "the same step again later: each scale line stands for the nearest event only",
		tl: []cluster.TimelineEntry{
			scalingEvent(sec(10), "Scaled up replica set web-a from 0 to 3"),
			scaled(sec(10.5), "web-a scaled from 0 to 3"),
			scaled(sec(20), "web-a scaled from 3 to 0"),
			scalingEvent(sec(600), "Scaled up replica set web-a from 0 to 3"),
		},
		kept: []string{"web-a from 0 to 3"},
	}, {
		name: "events that name only the size reached, combined or counted by the recorder",
		tl: []cluster.TimelineEntry{
			scalingEvent(sec(30), "Scaled up replica set web-a to 3"),
			scaled(sec(30.1), "web-a created with 3 replicas"),
			scalingEvent(sec(31), "(combined from similar events): Scaled down replica set web-b from 2 to 1 (x2)"),
			scaled(sec(31.9), "web-b scaled from 2 to 1"),
			scalingEvent(sec(33), "Scaled up replica set web-a to 4"),
			scaled(sec(33), "web-a scaled from 3 to 5"),
		},
		kept: []string{"web-a to 4"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := cluster.StepsOnce(tc.tl)
			var kept []string
			lines := 0
			for _, e := range got {
				switch e.Kind {
				case cluster.TimelineEvent:
					kept = append(kept, strings.TrimPrefix(e.Message, "ScalingReplicaSet: Scaled "))
				case cluster.TimelineScale:
					lines++
				}
			}
			if len(kept) != len(tc.kept) {
				t.Fatalf("kept events %q, want %q", kept, tc.kept)
			}
			for i := range kept {
				if !strings.Contains(kept[i], tc.kept[i]) {
					t.Errorf("kept events %q, want %q", kept, tc.kept)
				}
			}
			want := 0
			for _, e := range tc.tl {
				if e.Kind == cluster.TimelineScale {
					want++
				}
			}
			if lines != want {
				t.Errorf("%d scale lines left of %d: StepsOnce drops events only", lines, want)
			}
		})
	}
}

// Through the cluster: the scale lines Apply writes and the events it files
// are matched, the event stamped with the second before the batch that
// showed the new ReplicaSet.
func TestStepsOnceOnTheClustersTimeline(t *testing.T) {
	d := deployment("frontend", "web:v2", 3, "2")
	v1 := ownedReplicaSet(d, "v1", "1", "web:v1", 3, 3, at(-10))
	v2 := ownedReplicaSet(d, "v2", "2", "web:v2", 1, 0, at(1))
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: t0, Watch: synced, Objects: []runtime.Object{d, v1}})
	c.Apply(cluster.Batch{At: at(1).Add(1200 * time.Millisecond), Watch: synced, Objects: []runtime.Object{
		v2, event("e2", "Deployment", "frontend", "ScalingReplicaSet", "Scaled up replica set frontend-v2 from 0 to 1", 1, at(1)),
	}})
	tl := c.Timeline(shop, "frontend")
	if len(tl) != 2 {
		t.Fatalf("timeline %+v, want the scale line and the event", tl)
	}
	got := cluster.StepsOnce(tl)
	if len(got) != 1 || got[0].Message != "replicaset/frontend-v2 created with 1 replica" {
		t.Errorf("StepsOnce %+v, want the scale line alone", got)
	}
}
