package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// keyEvery is how often pressKeys presses a key in each rollscope console
// while the pods churn.
const keyEvery = time.Second

// pressKeys presses j and k in turn in every rollscope console, once a
// keyEvery, until ctx ends: what an operator does while a rollout runs,
// moving between the ReplicaSets. Each console times every key's Update and
// the frame after it (ROLLSCOPE_KEYTIMES), which keyFigures reads.
func pressKeys(ctx context.Context, sessions []*session) {
	tick := time.NewTicker(keyEvery)
	defer tick.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, s := range sessions {
			if s.keyTimes != "" {
				_, _ = s.tmux("send-keys", "-t", "console", []string{"j", "k"}[n%2])
			}
		}
	}
}

// keyFigures reads a console's key times: how many keys, the median, the
// 99th percentile and the slowest wall time, in milliseconds; how many took
// over 50 ms; for the slowest, the CPU the console used meanwhile, the
// collections that ended and how long its threads waited for a processor;
// and the most CPU any key took and how many took over 50 ms of it — which
// tell keys that worked from keys that waited for a processor and keys
// blocked on something else. "—" for a console that does not time its keys.
func keyFigures(s *session) string {
	if s.keyTimes == "" {
		return "—"
	}
	b, err := os.ReadFile(s.keyTimes)
	if err != nil {
		return "unread: " + err.Error()
	}
	type key struct{ wall, cpu, gcs, wait int }
	var keys []key
	for _, line := range strings.Split(string(b), "\n") {
		var k key
		// The wait is the fourth figure since December 2026; older
		// consoles (-baseline) write three.
		if n, _ := fmt.Sscan(line, &k.wall, &k.cpu, &k.gcs, &k.wait); n >= 3 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return "no keys"
	}
	slices.SortFunc(keys, func(a, b key) int { return a.wall - b.wall })
	over, overCPU, mostCPU := 0, 0, 0
	for _, k := range keys {
		if k.wall > 50_000 {
			over++
		}
		if k.cpu > 50_000 {
			overCPU++
		}
		mostCPU = max(mostCPU, k.cpu)
	}
	ms := func(us int) float64 { return float64(us) / 1000 }
	last := keys[len(keys)-1]
	return fmt.Sprintf("%d keys: %.1f / %.1f / %.1f ms, %d over 50 ms; the slowest %.1f ms on the CPU, %.1f ms waiting for one, %d collections; at most %.1f ms on the CPU, %d over 50 ms",
		len(keys), ms(keys[len(keys)/2].wall), ms(keys[len(keys)*99/100].wall), ms(last.wall), over, ms(last.cpu), ms(last.wait), last.gcs, ms(mostCPU), overCPU)
}
