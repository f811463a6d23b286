package watch

import (
	"errors"
	"io"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/tools/cache"
)

// failed records a list/watch failure reported by the kind's reflector,
// which retries with backoff (source.run).
func (s *source) failed(_ *cache.Reflector, err error) {
	if routineWatchEnd(err) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The reason only: the console's banner already says the watch was
	// lost and is reconnecting.
	s.problem = describe(err)
	s.problemRV = s.reflector.LastSyncResourceVersion()
	s.heard.Store(false)
	s.forbidden.Store(apierrors.IsForbidden(err))
	s.failing.Store(true)
	s.feed.dirty.poke()
}

// alive notes that the reflector delivered an event, which it only does
// after a successful list or watch.
func (s *source) alive() {
	if s.failing.Load() {
		s.heard.Store(true)
	}
}

// currentProblem says what is failing, "" when the watch is healthy. A
// failure is over once the reflector delivered an event or its cache moved to
// a new resourceVersion: both only follow a successful list or watch.
func (s *source) currentProblem() string {
	if !s.failing.Load() {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.heard.Load() || s.reflector.LastSyncResourceVersion() != s.problemRV {
		s.problem, s.problemRV = "", ""
		s.forbidden.Store(false)
		s.failing.Store(false)
	}
	return s.problem
}

// routineWatchEnd reports errors that are part of a healthy watch's life:
// the server closing a watch, or a resourceVersion too old to resume from,
// after which the reflector simply lists again.
func routineWatchEnd(err error) bool {
	return errors.Is(err, io.EOF) || apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// describe shortens an error to what an operator acts on.
func describe(err error) string {
	switch {
	case utilnet.IsConnectionRefused(err):
		return "connection refused"
	case utilnet.IsConnectionReset(err):
		return "connection reset"
	case errors.Is(err, io.ErrUnexpectedEOF) || utilnet.IsProbableEOF(err):
		return "connection closed"
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) && status.Status().Message != "" {
		return status.Status().Message
	}
	return err.Error()
}

// problem says why the picture cannot be trusted, "" when it can, and notes
// in the status which kinds the user may not list and whether the API server
// stopped answering. A failing watch is named first: it is the more precise
// reason. A refused list is no lost watch: the rest of the picture is live,
// and what cannot be listed says so where it would be shown. The followed
// pod's events count as every source does: a detail whose events cannot be
// listed must say so, not show none.
func (b *Bridge) problem() string {
	problem, forbidden := "", []string(nil)
	note := func(s *source) {
		p := s.currentProblem()
		switch {
		case p != "" && s.forbidden.Load():
			// The events come in up to three watches: one name each.
			if !slices.Contains(forbidden, s.kind) {
				forbidden = append(forbidden, s.kind)
			}
		case p != "" && problem == "":
			problem = p
		}
	}
	for _, s := range b.sources {
		note(s)
	}
	if f := b.followed; f != nil {
		note(f.src)
	}
	b.status.Forbidden = strings.Join(forbidden, ", ")
	b.status.Unanswered = false
	if problem == "" {
		if p := b.health.current(); p != "" {
			problem, b.status.Unanswered = p, true
		}
	}
	return problem
}

// since is when the state the status is about to report began: for an API
// server that stopped answering, when it was first asked in vain (the
// probe's deadline later), otherwise now.
func (b *Bridge) since() time.Time {
	if t := b.health.failingSince(); b.status.Unanswered && !t.IsZero() {
		return t
	}
	return b.clock.Now()
}
