package timeline

import (
	"slices"
	"testing"
	"time"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

// bigStory is n entries of a large rollout's timeline: each scaling step
// twice, as the watch's scale line and as the deployment controller's
// ScalingReplicaSet event, as a 30,000-pod rollout fills it.
func bigStory(n int) []cluster.TimelineEntry {
	var tl []cluster.TimelineEntry
	at := uitest.T0
	for i := 0; len(tl) < n; i++ {
		rs, verb, from, to := "api-8c7b5d6f4", "up", int64(i*25), int64(i*25+25)
		if i%2 == 1 {
			rs, verb, from, to = "api-6d4f8b9c7", "down", 30000-int64(i*25), 30000-int64(i*25+25)
		}
		tl = append(tl,
			cluster.TimelineEntry{Time: at, Kind: cluster.TimelineScale, Object: "replicaset/" + rs,
				Message: "replicaset/" + rs + " scaled from " + draw.Itoa(from) + " to " + draw.Itoa(to)},
			cluster.TimelineEntry{Time: at, Kind: cluster.TimelineEvent, Object: "deployment/api",
				Message: model.EventScalingReplicaSet + ": Scaled " + verb + " replica set " + rs + " from " + draw.Itoa(from) + " to " + draw.Itoa(to)})
		at = at.Add(time.Second)
	}
	return tl
}

// The pane's work on each refresh of the live console: the screen read
// again, the refresh told, the frame drawn — with the timeline unchanged
// since the last read, or one entry longer.
//
//	go test ./ui/panes/timeline/ -run '^$' -bench Refresh -benchmem
func BenchmarkRefresh(b *testing.B) {
	for _, grows := range []bool{false, true} {
		name := "unchanged"
		if grows {
			name = "one-new-entry"
		}
		b.Run(name, func(b *testing.B) {
			// The cluster's timeline keeps its last 1,000 entries; a
			// growing one is a window moving along a longer story.
			story := bigStory(4000)
			src := uitest.MidRollout()
			src.Entries = story[:1000]
			s := uitest.NewScreen(src, nil)
			p := New(s)
			uitest.Focused(p, 160, 20)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if grows {
					i = (i + 1) % 3000
					src.Entries = slices.Clone(story[i : i+1000])
				}
				s.Read()
				p.Update(screen.Refreshed{})
				_ = p.View()
			}
		})
	}
}
