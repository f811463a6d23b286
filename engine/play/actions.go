package play

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/drain"
	"rollscope/engine/noderoll"
	"rollscope/engine/rollingupdate"
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

// Perform runs one scripted action through the same engine functions the
// console's keys use.
func (p Player) Perform(ctx context.Context, a scenario.Action) error {
	if a.Target.Kind == scenario.TargetReplicationController {
		// The rolling-update controller carries the update out; the
		// action only asks for it.
		return rollingupdate.PerformScripted(ctx, p.Client, p.Namespace, a)
	}
	t := actions.Target{Namespace: p.Namespace, Name: a.Target.Name}
	switch a.Kind {
	case scenario.ActionSetImage:
		cause := fmt.Sprintf("rollscope set image deployment/%s %s=%s", a.Target.Name, a.Container, a.Image)
		return actions.SetImage(ctx, p.Client, t, a.Container, a.Image, cause)
	case scenario.ActionSetEnv:
		for _, name := range sortedKeys(a.Env) {
			value := a.Env[name]
			if err := actions.SetEnv(ctx, p.Client, t, a.Container, name, value, value == ""); err != nil {
				return err
			}
		}
		return nil
	case scenario.ActionPause:
		return actions.Pause(ctx, p.Client, t)
	case scenario.ActionResume:
		return actions.Resume(ctx, p.Client, t)
	case scenario.ActionUndo:
		return actions.Undo(ctx, p.Client, t, a.ToRevision)
	case scenario.ActionScale:
		return actions.Scale(ctx, p.Client, t, a.Replicas)
	case scenario.ActionRestart:
		return actions.Restart(ctx, p.Client, t, p.Now().UTC().Format(time.RFC3339))
	case scenario.ActionAbort:
		_, err := actions.Abort(ctx, p.Client, t)
		return err
	case scenario.ActionDrain:
		node, err := mapName(p.Node, a.Node)
		if err != nil {
			return err
		}
		// kubectl drain --ignore-daemonsets: the flag every node drain runbook adds.
		return drain.Request(ctx, p.Client, node, drain.Options{IgnoreDaemonSets: true})
	case scenario.ActionRollNodes:
		group, err := mapName(p.Group, a.Group)
		if err != nil {
			return err
		}
		return noderoll.Request(ctx, p.Client, group, a.Roll, p.Now())
	case scenario.ActionNextNode:
		group, err := mapName(p.Group, a.Group)
		if err != nil {
			return err
		}
		return noderoll.Continue(ctx, p.Client, group)
	}
	return fmt.Errorf("line %d: unknown action %q", a.Line, a.Kind)
}

func mapName(fn func(string) (string, error), name string) (string, error) {
	if fn == nil {
		return name, nil
	}
	return fn(name)
}

// sortedKeys is used where results must not depend on map order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
