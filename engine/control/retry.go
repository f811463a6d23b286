package control

import (
	"k8s.io/client-go/util/retry"
)

// RetryOnConflict runs a read-then-write attempt again, from a fresh read,
// while the API server answers 409 Conflict, as client-go's
// retry.RetryOnConflict does — except that an attempt's own error is never
// lost. client-go's takes any error wrapping context.DeadlineExceeded for
// its back-off running out and returns the last conflict instead, which is
// none: a write the API server never answered (frozen, or too slow for the
// caller's deadline) came back as a success.
func RetryOnConflict(attempt func() error) error {
	var last error
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		last = attempt()
		return last
	})
	if err == nil {
		return last
	}
	return err
}
