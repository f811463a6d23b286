package main

import (
	"context"
	"fmt"
	"maps"
	"time"

	"k8s.io/client-go/kubernetes"
)

// settledFor is how long the API's ReplicaSet rows must stay the same for a
// moment of the rollout to count as settled: far longer than a console's
// screen may lag the API (a batch every 50 ms, a redraw after it).
const settledFor = 700 * time.Millisecond

// settledChecks compares, until ctx ends, each rollscope console's
// ReplicaSet rows with the API's at every settled moment of the rollout:
// whenever the API's rows have not changed for settledFor, nor change while
// the screens are read, every row the screen shows must be the API's. It
// returns, per session, how many moments were checked and the first
// mismatch seen.
func settledChecks(ctx context.Context, admin kubernetes.Interface, namespace string, sessions []*session) (checked []int, mismatch []string) {
	checked, mismatch = make([]int, len(sessions)), make([]string, len(sessions))
	var last map[string][4]int
	since, done := time.Now(), false // done: this settled moment was checked
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return checked, mismatch
		case <-tick.C:
		}
		rows, err := apiRows(ctx, admin, namespace)
		if err != nil {
			continue
		}
		if !maps.Equal(rows, last) {
			last, since, done = rows, time.Now(), false
			continue
		}
		if done || time.Since(since) < settledFor {
			continue
		}
		done = true
		found := screenMismatches(sessions, rows)
		// The API may have moved on between its last read and the screens'
		// (at 30,000 pods a screen once showed a scale-down step the
		// previous read had not seen): only a moment the API still holds
		// after the screens were read is a settled one.
		if after, err := apiRows(ctx, admin, namespace); err != nil || !maps.Equal(after, rows) {
			if err == nil {
				last, since = after, time.Now()
			}
			done = false
			continue
		}
		for i, f := range found {
			checked[i]++
			if mismatch[i] == "" {
				mismatch[i] = f
			}
		}
	}
}

// screenMismatches reads each rollscope session's screen against the API's
// rows: one entry per rollscope session, by its index, holding the first
// ReplicaSet shown otherwise than the API holds it ("" when every row is
// the API's).
func screenMismatches(sessions []*session, rows map[string][4]int) map[int]string {
	found := map[int]string{}
	for i, s := range sessions {
		if s.kind != rollscopeKind {
			continue
		}
		found[i] = ""
		for hash, counts := range screenRows(s.screen()) {
			if want, ok := rows[hash]; !ok || want != counts {
				found[i] = fmt.Sprintf("ReplicaSet %s shown as %v, the API's is %v (all: %v)", hash, counts, want, rows)
				break
			}
		}
	}
	return found
}
