package live

import (
	"context"
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// probeEvery is how often a running simulation asks the API server whether
// it is there, and how long it waits for the answer.
const probeEvery = 2 * time.Second

// health notices when the API server stops answering and when it is back,
// and says so through Progress: meanwhile the trace just goes quiet, and
// the informers catch up when the server is back.
type health struct {
	next   time.Time // when to ask again
	lostAt time.Time // zero while the server answers
}

func (r *Run) probe(ctx context.Context, h *health) {
	now := time.Now()
	if now.Before(h.next) {
		return
	}
	h.next = now.Add(probeEvery)
	pctx, cancel := context.WithTimeout(ctx, probeEvery/2)
	_, err := r.client.CoreV1().Namespaces().Get(pctx, r.Namespace, metav1.GetOptions{})
	cancel()
	// Any answer of the server's own (a 404 too) means it is there.
	var status apierrors.APIStatus
	answered := err == nil || errors.As(err, &status)
	switch {
	case ctx.Err() != nil:
	case !answered && h.lostAt.IsZero():
		h.lostAt = now
		r.progress("lost the API server (%v); the run goes on and catches up when it answers again", err)
	case answered && !h.lostAt.IsZero():
		r.progress("the API server answers again after %s", time.Since(h.lostAt).Round(100*time.Millisecond))
		h.lostAt = time.Time{}
	}
}
