package perform

import (
	"context"
	"errors"

	"rollscope/model/action"
)

// PlanGates implements screen.Actions.
func (c *Cluster) PlanGates(ctx context.Context, r action.Request) ([]action.GateReading, error) {
	if len(r.Canary.Gates) == 0 && len(r.Canary.Templates) == 0 {
		return nil, nil
	}
	return nil, errors.New("metric gates cannot be read on this console yet")
}
