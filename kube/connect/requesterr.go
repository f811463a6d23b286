package connect

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strings"

	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// Explain shortens a request that never got its answer to what the operator
// needs: client-go's `Patch "https://10.0.0.1:6443/apis/apps/v1/namespaces/…/
// scale": context deadline exceeded` fills the footer with an address and
// cuts off the only words that matter. The words around it ("cannot scale
// deployment/web: …") are kept; the address and the Go error give way to
// what happened and whether the change may have been made. Other errors are
// returned as they are.
func Explain(err error) error {
	var ue *url.Error
	if err == nil || !errors.As(err, &ue) {
		return err
	}
	line := err.Error()
	before, _, _ := strings.Cut(line, ue.Error())
	before = strings.TrimSuffix(strings.TrimSpace(before), ":")
	switch {
	case before == "":
		line = unanswered(ue)
	case strings.Contains(before, "did not answer") || strings.Contains(before, "refused the connection"):
		// The words around it already say what happened.
		line = before
	default:
		line = before + ": " + unanswered(ue)
	}
	return &Error{line: line, err: err}
}

// unanswered says why a request got no answer and what that means for the
// change it carried.
func unanswered(ue *url.Error) string {
	err := ue.Err
	switch {
	case errors.Is(err, context.DeadlineExceeded) || utilnet.IsTimeout(err):
		return "the API server did not answer in time — whether the change was made is not known"
	case errors.Is(err, context.Canceled):
		return "cancelled before the API server answered — whether the change was made is not known"
	case utilnet.IsConnectionRefused(err):
		return "the API server refused the connection (down or restarting) — this request did not reach it"
	case utilnet.IsConnectionReset(err) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || utilnet.IsProbableEOF(err):
		return "the connection to the API server broke — whether the change was made is not known"
	}
	return "the API server could not be asked (" + err.Error() + ")"
}
