package watch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/kubernetes"
)

// Probe asks the API server whether it answers; nil means it does.
type Probe func(ctx context.Context) error

// A frozen API server (stopped, swapping, or wedged) keeps its TCP
// connections open, so the watches neither fail nor deliver: only
// a request of our own with a deadline notices. One a second, each given two
// seconds, puts the banner up at most three seconds after the API server
// stops answering.
const (
	probeEvery   = time.Second
	probeTimeout = 2 * time.Second
)

// ReadyzProbe asks the API server's /readyz, which every authenticated user
// may read (system:public-info-viewer) and which fails as soon as a graceful
// shutdown begins. nil when the client has no REST client to ask with (the
// fake clientsets of tests).
func ReadyzProbe(client kubernetes.Interface) Probe {
	rc := client.Discovery().RESTClient()
	if rc == nil {
		return nil
	}
	return func(ctx context.Context) error {
		return rc.Get().AbsPath("/readyz").Do(ctx).Error()
	}
}

// health is the last probe's verdict, shared between the probing goroutine
// and the pump.
type health struct {
	mu      sync.Mutex
	problem string
	// asked is when the first probe of the current failure was sent: the
	// API server has not answered since then.
	asked time.Time
}

// set keeps the last probe's verdict and reports whether it differs from
// the one before.
func (h *health) set(problem string, asked time.Time) (changed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if problem == "" || h.problem == "" {
		h.asked = asked
	}
	changed, h.problem = problem != h.problem, problem
	return changed
}

// failingSince is when the API server was last asked and answered nothing
// since; zero while it answers.
func (h *health) failingSince() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.problem == "" {
		return time.Time{}
	}
	return h.asked
}

// current says why the API server is not answering, "" when it is.
func (h *health) current() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.problem
}

// probeLoop asks probe every probeEvery until ctx is done, calling moved
// when the verdict changes.
func (h *health) probeLoop(ctx context.Context, probe Probe, moved func()) {
	tick := time.NewTicker(probeEvery)
	defer tick.Stop()
	for {
		sent := time.Now()
		asked, cancel := context.WithTimeout(ctx, probeTimeout)
		err := probe(asked)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if h.set(unanswered(err), sent) {
			moved()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// unanswered turns a probe's error into what the banner says, "" when the
// API server answered. Any answer that is not a server failure counts: a
// 401 or 403 on /readyz still comes from a live API server.
func unanswered(err error) string {
	if err == nil {
		return ""
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		code := status.Status().Code
		switch {
		case strings.Contains(err.Error(), "shutdown failed"):
			return "it is shutting down"
		case code >= 500:
			return fmt.Sprintf("it is not ready (/readyz answered %d)", code)
		}
		return ""
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) || utilnet.IsTimeout(err):
		return fmt.Sprintf("no answer within %s", probeTimeout)
	case utilnet.IsConnectionRefused(err):
		return "connection refused"
	case utilnet.IsConnectionReset(err):
		return "connection reset"
	}
	return describe(err)
}
