package connect

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// Error is a connection failure: one line for the operator, and the cause
// for errors.Is and errors.As.
type Error struct {
	line string
	err  error
	bad  bool // the operator's input (BadInput)
}

func (e *Error) Error() string { return e.line }
func (e *Error) Unwrap() error { return e.err }

func fail(cause error, format string, args ...any) *Error {
	return &Error{line: fmt.Sprintf(format, args...), err: cause}
}

// explain turns the first request's failure into what to do about it.
func (c *Connection) explain(err error) error {
	const checkContext = "is the cluster up, and is --context right?"
	var (
		dns     *net.DNSError
		unknown x509.UnknownAuthorityError
		invalid x509.CertificateInvalidError
		host    x509.HostnameError
	)
	switch {
	case apierrors.IsUnauthorized(err):
		return fail(err, "the API server %s answered: your credentials for context %q were rejected (401): log in again", c.Server, c.Context)
	case apierrors.IsForbidden(err):
		return fail(err, "the API server %s answered: context %q may not list deployments in namespace %q (403): pick a namespace you can read with -n, or ask for access", c.Server, c.Context, c.Namespace)
	case utilnet.IsConnectionRefused(err):
		return fail(err, "cannot reach the API server %s: connection refused — %s", c.Server, checkContext)
	case errors.As(err, &dns):
		return fail(err, "cannot reach the API server %s: no such host %q — %s", c.Server, dns.Name, checkContext)
	case errors.Is(err, context.DeadlineExceeded) || apierrors.IsTimeout(err) || utilnet.IsTimeout(err):
		return fail(err, "the API server %s did not answer in time — %s", c.Server, checkContext)
	case errors.As(err, &unknown) || errors.As(err, &invalid) || errors.As(err, &host):
		return fail(err, "cannot trust the API server %s: %v — check the certificate-authority of context %q", c.Server, err, c.Context)
	}
	return fail(err, "the API server %s failed to list deployments in namespace %q (context %q): %v", c.Server, c.Namespace, c.Context, err)
}
