package watch_test

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sync/atomic"
	"testing"

	"k8s.io/client-go/kubernetes/fake"

	"rollscope/kube/watch"
)

// An API server that stops answering while the watches stay open (frozen
// with SIGSTOP): only the probe notices, and the batch says so until it
// answers again.
func TestUnansweredProbeIsReportedAndClears(t *testing.T) {
	client := fake.NewClientset(pod("default", "web"))
	var frozen atomic.Bool
	probe := func(ctx context.Context) error {
		if frozen.Load() {
			<-ctx.Done() // no answer: the probe's own deadline ends it
			return ctx.Err()
		}
		return nil
	}
	r := run(t, client, watch.Scope{}, watch.Options{Probe: probe})
	eventually(t, "a synced, connected batch", func() bool {
		b, _ := r.snapshot()
		return len(b) > 0 && b[len(b)-1].Watch.Synced && b[len(b)-1].Watch.Connected
	})
	frozen.Store(true)
	eventually(t, "a batch saying the API server does not answer", func() bool {
		b, _ := r.snapshot()
		w := b[len(b)-1].Watch
		return !w.Connected && w.Unanswered && w.Problem == "no answer within 2s"
	})
	frozen.Store(false)
	eventually(t, "a batch saying it answers again", func() bool {
		b, _ := r.snapshot()
		w := b[len(b)-1].Watch
		return w.Connected && !w.Unanswered && w.Problem == ""
	})
}

// The probe's other answers: a refused connection, and an API server that
// answers 403 (it is alive; the user's role is not the probe's business).
func TestProbeAnswers(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"refused", refused, "connection refused"},
		{"answered", nil, ""},
		{"answered 403", apierrors.NewForbidden(schema.GroupResource{}, "", errors.New("no")), ""},
		{"shutting down", apierrors.NewInternalError(errors.New("[-]shutdown failed: reason withheld")), "it is shutting down"},
	} {
		client := fake.NewClientset()
		err := tc.err
		r := run(t, client, watch.Scope{}, watch.Options{Probe: func(context.Context) error { return err }})
		eventually(t, tc.name+": the probe's verdict", func() bool {
			b, _ := r.snapshot()
			if len(b) == 0 {
				return false
			}
			w := b[len(b)-1].Watch
			return w.Synced && w.Problem == tc.want && w.Unanswered == (tc.want != "")
		})
	}
	if watch.ReadyzProbe(fake.NewClientset()) != nil {
		t.Error("a fake clientset, which has no REST client, got a probe")
	}
}
