package live

import (
	"errors"
	"fmt"
	"testing"
)

// A refusal to create the run's namespace or nodes is one line that says
// what to do, and still is ErrForbidden; any other failure is wrapped.
func TestSetupErrorSaysWhatARefusalMeans(t *testing.T) {
	refused := fmt.Errorf("create namespace: %w", ErrForbidden)
	err := SetupError("lab", refused)
	want := `context "lab" may not create namespaces or nodes: a live simulate runs in a namespace of its own, with hollow nodes unless --no-hollow-nodes — use a context that may, or leave out the cluster flags to simulate on the embedded cluster (create namespace: forbidden)`
	if err.Error() != want || !errors.Is(err, ErrForbidden) {
		t.Errorf("SetupError = %q (is ErrForbidden: %v); want %q", err, errors.Is(err, ErrForbidden), want)
	}
	other := errors.New("boom")
	if err := SetupError("lab", other); err.Error() != "setting up the simulation: boom" || !errors.Is(err, other) {
		t.Errorf("SetupError = %q; want it wrapped", err)
	}
}
