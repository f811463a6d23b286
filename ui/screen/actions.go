package screen

import (
	"context"

	"rollscope/model/action"
	"rollscope/model/cluster"
)

// Actions is everything the console's keys send or ask before sending.
// engine/perform implements it; a nil Actions means no writes at all. Every
// method but Check and PlanRoll may block on the API server: the console
// calls them from commands, never from Update or View.
type Actions interface {
	// Check refuses bad input before anything is sent (image reference, env
	// name, replicas, revision, roll settings such as "150%").
	Check(r action.Request) error
	// Send sends r once and says in a few words what happened ("ok",
	// "revision 7 aborted, back on revision 6", "requested — the Nodes
	// pane shows its progress", "stopped; drained nodes stay cordoned").
	// An error wrapping action.ErrNothingToDo means nothing was sent.
	// Requests on several nodes go one node at a time and an error says
	// which nodes were done and which were not sent.
	Send(ctx context.Context, r action.Request) (string, error)
	// Forecast rehearses r on a copy (specs with Forecast) and says what
	// the rollout will do.
	Forecast(ctx context.Context, r action.Request) (string, error)
	// Containers reads a deployment's containers for set image / set env.
	Containers(ctx context.Context, namespace, deployment string) ([]action.Container, error)
	// UndoPreview diffs the current template against revision's.
	UndoPreview(ctx context.Context, namespace, deployment string, revision int64) ([]cluster.DiffLine, error)
	// PreviewDrain says what draining node with o would do; changes
	// nothing.
	PreviewDrain(ctx context.Context, node string, o action.DrainOptions) (action.DrainPreview, error)
	// PlanRoll resolves a roll's settings as the node-roll controller will
	// and says in one sentence what it will do, or refuses them.
	PlanRoll(group string, s action.RollSettings) (string, error)
	// PlanRCUpdate checks the RC dialog's fields and works out the update.
	PlanRCUpdate(ctx context.Context, namespace string, in action.RCUpdateInput) (action.RCPlan, error)
	// PlanGates resolves a canary request's metric gates (its templates
	// read from the cluster) and reads each once now, for the plan's
	// confirmation; a gate whose provider errors or answers nothing is
	// refused with the provider's own message. No gates: none.
	PlanGates(ctx context.Context, r action.Request) ([]action.GateReading, error)
}
