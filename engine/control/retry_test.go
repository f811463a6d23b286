package control_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"rollscope/engine/control"
)

// A write that timed out is a failure, not a success: client-go's own
// RetryOnConflict returns nil for it.
func TestRetryOnConflictKeepsTheAttemptsError(t *testing.T) {
	timedOut := fmt.Errorf("cannot scale deployment/web: %w", context.DeadlineExceeded)
	if err := control.RetryOnConflict(func() error { return timedOut }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a timed-out write returned %v", err)
	}
	conflict := apierrors.NewConflict(schema.GroupResource{Resource: "deployments"}, "web", errors.New("changed"))
	tries := 0
	err := control.RetryOnConflict(func() error {
		tries++
		if tries < 3 {
			return conflict
		}
		return nil
	})
	if err != nil || tries != 3 {
		t.Errorf("conflicts then success: %v after %d tries", err, tries)
	}
	if err := control.RetryOnConflict(func() error { return conflict }); !apierrors.IsConflict(err) {
		t.Errorf("conflicts every time: %v", err)
	}
}
