package play

import (
	"context"
	"errors"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/perform"
	"rollscope/engine/scenario"
	"rollscope/model/action"
)

// ErrNotSupported marks a scripted action that cannot run where the
// scenario is played.
var ErrNotSupported = errors.New("not supported yet")

// Player performs a scenario's scripted actions on a cluster.
type Player struct {
	Client kubernetes.Interface
	// Namespace is where action targets are looked up: the scenario's own
	// on the embedded cluster, the run's fresh namespace on a live one.
	Namespace string
	// OneNamespace says the run created every object in Namespace, whatever
	// namespace the scenario gave it (a live run), so an action's own
	// namespace: is that one too.
	OneNamespace bool
	// Now is the cluster's clock (restart stamps it on the template).
	Now func() time.Time
	// Node and Group turn the scenario's node and group names into the
	// cluster's, or say why the action cannot run there. nil keeps the
	// scenario's names.
	Node, Group func(name string) (string, error)
}

// Run performs one scripted action and returns what the trace's action
// line says: the target, and "ok" or why it failed.
func (p Player) Run(ctx context.Context, a scenario.Action) (target, result string) {
	return Target(a), Outcome(p.Perform(ctx, a))
}

// Target is how a trace names what an action applies to.
func Target(a scenario.Action) string {
	switch a.Kind {
	case scenario.ActionDrain:
		return "node/" + a.Node
	case scenario.ActionRollNodes, scenario.ActionNextNode:
		return "group/" + a.Group
	}
	return a.Target.String()
}

// Outcome is "ok" or the error's text. Nothing to do is said plainly: the
// sentinel's own words would only repeat it.
func Outcome(err error) string {
	if err == nil {
		return "ok"
	}
	result := err.Error()
	if errors.Is(err, action.ErrNothingToDo) {
		result = strings.TrimSuffix(result, ": "+action.ErrNothingToDo.Error())
	}
	return result
}

// Perform runs one scripted action as the console's keys would: as the
// requests it stands for, in order, through perform.Send. The first that
// fails stops it.
func (p Player) Perform(ctx context.Context, a scenario.Action) error {
	reqs, err := p.requests(a)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		if _, err := perform.Send(ctx, p.Client, p.Now, r); err != nil {
			return err
		}
	}
	return nil
}
