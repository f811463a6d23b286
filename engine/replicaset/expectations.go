package replicaset

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// expectationsTTL is how long the controller trusts its own record of
// in-flight creations and deletions before it falls back to the cache, so
// that a lost watch event cannot stall an owner forever (upstream's
// ExpectationsTimeout).
const expectationsTTL = 5 * time.Minute

// expectations remembers, per owner key, the pod creations and deletions a
// sync has issued but the pod cache has not shown yet. While any are pending
// the owner's pods in the cache are out of date, and acting on them would
// create or delete twice. Deletions are tracked by pod key so that an
// unrelated pod going away does not count.
//
// It is shared between event handlers and Sync, which a live runner calls
// from different goroutines.
type expectations struct {
	clock clock.PassiveClock

	mu     sync.Mutex
	owners map[string]*inFlight
}

type inFlight struct {
	creations int
	deletions map[string]struct{}
	since     time.Time
}

func newExpectations(c clock.PassiveClock) *expectations {
	return &expectations{clock: c, owners: make(map[string]*inFlight)}
}

// satisfied reports whether the cache can be trusted for owner: nothing is in
// flight, or what is in flight has been waited for longer than the TTL.
func (e *expectations) satisfied(owner string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	f, ok := e.owners[owner]
	if !ok || (f.creations <= 0 && len(f.deletions) == 0) {
		return true
	}
	return e.clock.Since(f.since) > expectationsTTL
}

// expectCreations records that n pods are about to be created, replacing
// whatever was expected before.
func (e *expectations) expectCreations(owner string, n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.owners[owner] = &inFlight{creations: n, since: e.clock.Now()}
}

// expectDeletions records the keys of pods about to be deleted, replacing
// whatever was expected before.
func (e *expectations) expectDeletions(owner string, podKeys []string) {
	set := make(map[string]struct{}, len(podKeys))
	for _, k := range podKeys {
		set[k] = struct{}{}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.owners[owner] = &inFlight{deletions: set, since: e.clock.Now()}
}

// creationObserved lowers the pending creations of owner by one: a pod showed
// up in the cache, or a create was never attempted or failed.
func (e *expectations) creationObserved(owner string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if f, ok := e.owners[owner]; ok {
		f.creations--
	}
}

// deletionObserved marks the deletion of podKey as seen, if it was expected.
func (e *expectations) deletionObserved(owner, podKey string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if f, ok := e.owners[owner]; ok {
		delete(f.deletions, podKey)
	}
}

// forget drops everything expected for owner, when the owner itself is gone.
func (e *expectations) forget(owner string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.owners, owner)
}
