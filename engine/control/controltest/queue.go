package controltest

import (
	"maps"
	"time"

	"k8s.io/utils/clock"
)

// Queue is a control.Queue that remembers every call and, like client-go's
// delaying queue on the runner's clock, keeps each waiting key once, at the
// earliest time it was asked for.
type Queue struct {
	// Added are the keys passed to Add, in order; After the keys passed to
	// AddAfter with their delays. A test may clear either between steps.
	Added []string
	After []Delayed

	clock clock.PassiveClock
	due   map[string]time.Time
}

// Delayed is one AddAfter call.
type Delayed struct {
	Key   string
	Delay time.Duration
}

func (d Delayed) String() string { return d.Key + "@" + d.Delay.String() }

func newQueue(c clock.PassiveClock) *Queue {
	return &Queue{clock: c, due: map[string]time.Time{}}
}

// Add implements control.Queue.
func (q *Queue) Add(key string) {
	q.Added = append(q.Added, key)
	q.wait(key, 0)
}

// AddAfter implements control.Queue.
func (q *Queue) AddAfter(key string, d time.Duration) {
	q.After = append(q.After, Delayed{key, d})
	q.wait(key, d)
}

func (q *Queue) wait(key string, d time.Duration) {
	at := q.clock.Now().Add(d)
	if cur, ok := q.due[key]; !ok || at.Before(cur) {
		q.due[key] = at
	}
}

// Waiting returns each waiting key with the time it falls due.
func (q *Queue) Waiting() map[string]time.Time { return maps.Clone(q.due) }

// Forget drops every waiting key, as a restarted runner starts with an
// empty queue. Added and After are kept.
func (q *Queue) Forget() { clear(q.due) }

// Next takes the waiting key that falls due first, no later than until;
// keys due at the same time come in key order, so runs are reproducible.
func (q *Queue) Next(until time.Time) (key string, at time.Time, ok bool) {
	for k, t := range q.due {
		if t.After(until) {
			continue
		}
		if !ok || t.Before(at) || (t.Equal(at) && k < key) {
			key, at, ok = k, t, true
		}
	}
	if ok {
		delete(q.due, key)
	}
	return key, at, ok
}
