package live

import (
	"errors"
	"fmt"
)

// Rate limits of a live simulation's client. It speaks for a whole node
// group of kubelets (each real one may send 50 requests a second) plus the
// drain and roll controllers; client-go's default of 5 a second made a
// 100-replica rollout four times slower than the same cluster rolls it.
const (
	SimulationQPS   = 100
	SimulationBurst = 200
)

// SetupError says what a refused setup (Simulation.Start) means for the
// operator of context.
func SetupError(context string, err error) error {
	if errors.Is(err, ErrForbidden) {
		return &lineError{
			line: fmt.Sprintf("context %q may not create namespaces or nodes: a live simulate runs in a namespace of its own, with hollow nodes unless --no-hollow-nodes — use a context that may, or leave out the cluster flags to simulate on the embedded cluster (%v)", context, err),
			err:  err,
		}
	}
	return fmt.Errorf("setting up the simulation: %w", err)
}

// lineError is an error whose text is written for the operator; the cause
// stays reachable for errors.Is and errors.As.
type lineError struct {
	line string
	err  error
}

func (e *lineError) Error() string { return e.line }
func (e *lineError) Unwrap() error { return e.err }
