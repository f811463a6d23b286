package perform_test

import (
	"context"

	"rollscope/engine/perform"
	"rollscope/model"
	"rollscope/model/action"
)

// consoleActions is the console's Actions interface as the shared contract
// writes it. Engine packages cannot import the console, so the method set
// Cluster must have is pinned here: a change to either shows at compile
// time.
type consoleActions interface {
	Check(r action.Request) error
	Send(ctx context.Context, r action.Request) (string, error)
	Forecast(ctx context.Context, r action.Request) (string, error)
	Containers(ctx context.Context, namespace, deployment string) ([]action.Container, error)
	UndoPreview(ctx context.Context, namespace, deployment string, revision int64) ([]model.DiffLine, error)
	PreviewDrain(ctx context.Context, node string, o action.DrainOptions) (action.DrainPreview, error)
	PlanRoll(group string, s action.RollSettings) (string, error)
	PlanRCUpdate(ctx context.Context, namespace string, in action.RCUpdateInput) (action.RCPlan, error)
}

var _ consoleActions = (*perform.Cluster)(nil)
