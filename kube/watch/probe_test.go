package watch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"

	"rollscope/kube/watch"
	"rollscope/model/cluster"
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

// ReadyzProbe against an HTTP server answering as kube-apiserver does: ok,
// then 500 with the failing checks once a graceful shutdown begins, then
// nothing at all.
func TestReadyzProbeHearsAShutdownAndSilence(t *testing.T) {
	var state atomic.Int32 // 0 ready, 1 shutting down, 2 frozen
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		switch state.Load() {
		case 1:
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, "[+]ping ok\n[+]etcd ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n")
		case 2:
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		default:
			fmt.Fprint(w, "ok")
		}
	}))
	defer srv.Close()
	defer close(hang)
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, fake.NewClientset(), watch.Scope{}, watch.Options{Probe: watch.ReadyzProbe(client)})
	last := func() cluster.WatchStatus {
		b, _ := r.snapshot()
		if len(b) == 0 {
			return cluster.WatchStatus{}
		}
		return b[len(b)-1].Watch
	}
	eventually(t, "connected", func() bool { return last().Synced && last().Connected })
	state.Store(1)
	eventually(t, "shutting down", func() bool { return last().Problem == "it is shutting down" })
	state.Store(2)
	eventually(t, "no answer", func() bool { return last().Problem == "no answer within 2s" })
	state.Store(0)
	eventually(t, "answers again", func() bool { return last().Connected && !last().Unanswered })
}
