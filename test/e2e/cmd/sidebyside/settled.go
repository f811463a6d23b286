package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
)

// settledFor is how long the API's ReplicaSet rows must stay the same for a
// moment of the rollout to count as settled: far longer than a console's
// screen may lag the API (a batch every 50 ms, a redraw after it).
const settledFor = 700 * time.Millisecond

// catchUpWithin is how long a screen found behind the API at a settled
// moment is watched for the API's rows before it counts as wrong rather
// than late.
const catchUpWithin = 20 * time.Second

// settled is one rollscope console's settled moments: how many were
// checked, and what was found at those where its rows were not the API's.
type settled struct {
	checked int
	behind  []string
}

// settledChecks compares, until ctx ends, each rollscope console's
// ReplicaSet rows with the API's at every settled moment of the rollout:
// whenever the API's rows have not changed for settledFor, nor change while
// the screens are read, every row the screen shows must be the API's. A
// screen found otherwise is watched until it shows the API's rows, and the
// harness's own watch (seen) says whether the API server had sent them by
// then: a console behind its watch is a console's fault, one behind the
// API's list with its watch is not.
func settledChecks(ctx context.Context, admin kubernetes.Interface, namespace string, sessions []*session, seen *deliveries) []settled {
	out := make([]settled, len(sessions))
	var last map[string][4]int
	since, done := time.Now(), false // done: this settled moment was checked
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return out
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
		read := time.Now()
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
			out[i].checked++
			if f != nil {
				why := f.explain(ctx, admin, namespace, sessions[i], seen, since, read)
				say("%s behind the API at a settled moment: %s", sessions[i].name, why)
				out[i].behind = append(out[i].behind, why)
			}
		}
	}
}

// mismatch is a ReplicaSet a screen shows otherwise than the API holds it.
type mismatch struct {
	hash        string
	shown, want [4]int
	all         map[string][4]int
}

// explain says how far behind the screen was: when the harness's watch
// brought the API's counts, measured from when its list first showed them
// (since), and when the screen showed the API's rows, watched for up to
// catchUpWithin.
func (f *mismatch) explain(ctx context.Context, admin kubernetes.Interface, namespace string, s *session, seen *deliveries, since, read time.Time) string {
	watch := "the harness's own watch had not brought them yet"
	if at, ok := seen.of(f.hash, f.want); ok {
		watch = fmt.Sprintf("the harness's own watch brought them %s its list showed them", relative(at.Sub(since)))
	}
	caught := fmt.Sprintf("the screen did not show the API's rows within %s: wrong, not late", catchUpWithin)
	for start := time.Now(); time.Since(start) < catchUpWithin; time.Sleep(50 * time.Millisecond) {
		now, err := apiRows(ctx, admin, namespace)
		if err != nil {
			continue
		}
		if screenMismatches([]*session{s}, now)[0] == nil {
			caught = fmt.Sprintf("the screen showed the API's rows %.2f s after the list first showed these", time.Since(since).Seconds())
			break
		}
	}
	return fmt.Sprintf("ReplicaSet %s shown as %v while the API held %v for %.2f s (all: %v): %s; %s; %s",
		f.hash, f.shown, f.want, read.Sub(since).Seconds(), f.all, watch, f.received(s, since), caught)
}

// received says when the console's model received the API's counts, from
// its batch log (ROLLSCOPE_BATCHTIMES): the last time a batch brought
// them, and how long that batch waited between the console's watch
// caches and its model.
func (f *mismatch) received(s *session, since time.Time) string {
	b, err := os.ReadFile(s.batchTimes)
	if err != nil {
		return "the console's batches were not logged"
	}
	for _, line := range slices.Backward(strings.Split(string(b), "\n")) {
		var at, waited int64
		var hash string
		var counts [4]int
		if n, _ := fmt.Sscan(line, &at, &waited, &hash, &counts[0], &counts[1], &counts[2], &counts[3]); n == 7 && hash == f.hash && counts == f.want {
			return fmt.Sprintf("the console's model received them %s the list showed them (the batch %d ms from its watch's caches)",
				relative(time.UnixMilli(at).Sub(since)), waited)
		}
	}
	return "the console's model never received them"
}

// screenMismatches reads each rollscope session's screen against the API's
// rows: one entry per rollscope session, by its index, holding the first
// ReplicaSet shown otherwise than the API holds it (nil when every row is
// the API's).
func screenMismatches(sessions []*session, rows map[string][4]int) map[int]*mismatch {
	found := map[int]*mismatch{}
	for i, s := range sessions {
		if s.kind != rollscopeKind {
			continue
		}
		found[i] = nil
		for hash, counts := range screenRows(s.screen()) {
			if want, ok := rows[hash]; !ok || want != counts {
				found[i] = &mismatch{hash: hash, shown: counts, want: want, all: rows}
				break
			}
		}
	}
	return found
}

// relative is d as "0.25 s after" or "0.10 s before".
func relative(d time.Duration) string {
	if d < 0 {
		return fmt.Sprintf("%.2f s before", -d.Seconds())
	}
	return fmt.Sprintf("%.2f s after", d.Seconds())
}
