package rollingupdate

import (
	"context"
	"fmt"
	"time"

	"rollscope/engine/sim"
)

// VirtualClock lets Run drive an update in an embedded cluster at full
// speed: waiting runs the cluster's controllers on virtual time, in the
// caller's goroutine, so the update and the cluster take turns
// deterministically (a rehearsal).
type VirtualClock struct {
	Runner *sim.Runner
}

// Now is the virtual time.
func (c VirtualClock) Now() time.Time { return c.Runner.Clock().Now() }

// Wait runs the cluster for d of virtual time.
func (c VirtualClock) Wait(ctx context.Context, d time.Duration) error {
	end := c.Now().Sub(c.Runner.Start()) + d
	// A timer at the end makes the clock reach it even when the cluster has
	// nothing to do before then.
	c.Runner.At(end, func() {})
	if _, err := c.Runner.Run(ctx, sim.RunOptions{Until: end}); err != nil {
		return fmt.Errorf("run the embedded cluster for %v: %w", d, err)
	}
	return nil
}
