package connect

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
)

// A write sent while the API server does not answer shows its whole reason
// in a line short enough for the footer, keeping what the action was.
func TestExplainUnansweredRequests(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
	for _, tc := range []struct {
		name  string
		cause error
		want  string
	}{
		{"frozen", context.DeadlineExceeded, "cannot scale deployment/web: the API server did not answer in time — whether the change was made is not known"},
		{"down", refused, "cannot scale deployment/web: the API server refused the connection (down or restarting) — this request did not reach it"},
	} {
		err := fmt.Errorf("cannot scale deployment/web: %w",
			&url.Error{Op: "Patch", URL: "https://127.0.0.1:6443/apis/apps/v1/namespaces/default/deployments/web/scale", Err: tc.cause})
		got := Explain(err)
		if !strings.HasPrefix(got.Error(), tc.want) || strings.Contains(got.Error(), "https://") {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		var ue *url.Error
		if !errors.As(got, &ue) {
			t.Errorf("%s: the cause is lost", tc.name)
		}
	}
	// The engine's own words for a timeout stay, without the request.
	engine := fmt.Errorf("cannot scale deployment/web: the API server did not answer in time — whether the change was made is not known: %w",
		&url.Error{Op: "Patch", URL: "https://127.0.0.1:6443/x", Err: context.DeadlineExceeded})
	if got := Explain(engine).Error(); got != "cannot scale deployment/web: the API server did not answer in time — whether the change was made is not known" {
		t.Errorf("engine's words: %q", got)
	}
	plain := fmt.Errorf("deployment web is paused")
	if Explain(plain) != plain {
		t.Error("an error that is no unanswered request was changed")
	}
}
