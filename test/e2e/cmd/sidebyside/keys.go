package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
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
// 99th percentile and the slowest, in milliseconds, or "—" for a console
// that does not time its keys.
func keyFigures(s *session) string {
	if s.keyTimes == "" {
		return "—"
	}
	b, err := os.ReadFile(s.keyTimes)
	if err != nil {
		return "unread: " + err.Error()
	}
	var us []int
	for _, f := range strings.Fields(string(b)) {
		if v, err := strconv.Atoi(f); err == nil {
			us = append(us, v)
		}
	}
	if len(us) == 0 {
		return "no keys"
	}
	slices.Sort(us)
	ms := func(i int) float64 { return float64(us[i]) / 1000 }
	return fmt.Sprintf("%d keys: %.1f / %.1f / %.1f ms", len(us), ms(len(us)/2), ms(len(us)*99/100), ms(len(us)-1))
}
