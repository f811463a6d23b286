package embedded

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"rollscope/engine/actions"
	"rollscope/engine/drain"
	"rollscope/engine/noderoll"
	"rollscope/engine/rollingupdate"
	"rollscope/engine/scenario"
)

// runAction performs one scripted action through the same engine functions
// the console's keys use, and reports its result.
func (c *Cluster) runAction(ctx context.Context, a scenario.Action) {
	target := a.Target.String()
	switch a.Kind {
	case scenario.ActionDrain:
		target = "node/" + a.Node
	case scenario.ActionRollNodes:
		target = "group/" + a.Group
	}
	result := "ok"
	if err := c.perform(ctx, a); err != nil {
		result = err.Error()
		if errors.Is(err, actions.ErrNothingToDo) {
			result = strings.TrimSuffix(result, ": "+actions.ErrNothingToDo.Error())
		}
	}
	now := c.clock.Now()
	for _, fn := range c.onAction {
		fn(now, a.Kind, target, result)
	}
}

// ErrNotSupported marks a scripted action whose engine has not landed yet.
var ErrNotSupported = errors.New("not supported yet")

func (c *Cluster) perform(ctx context.Context, a scenario.Action) error {
	if a.Target.Kind == scenario.TargetReplicationController {
		return rollingupdate.PerformScripted(ctx, c.Client, c.Scenario.Namespace, a)
	}
	t := actions.Target{Namespace: c.Scenario.Namespace, Name: a.Target.Name}
	switch a.Kind {
	case scenario.ActionSetImage:
		cause := fmt.Sprintf("rollscope set image deployment/%s %s=%s", a.Target.Name, a.Container, a.Image)
		return actions.SetImage(ctx, c.Client, t, a.Container, a.Image, cause)
	case scenario.ActionSetEnv:
		for _, name := range sortedKeys(a.Env) {
			value := a.Env[name]
			if err := actions.SetEnv(ctx, c.Client, t, a.Container, name, value, value == ""); err != nil {
				return err
			}
		}
		return nil
	case scenario.ActionPause:
		return actions.Pause(ctx, c.Client, t)
	case scenario.ActionResume:
		return actions.Resume(ctx, c.Client, t)
	case scenario.ActionUndo:
		return actions.Undo(ctx, c.Client, t, a.ToRevision)
	case scenario.ActionScale:
		return actions.Scale(ctx, c.Client, t, a.Replicas)
	case scenario.ActionRestart:
		return actions.Restart(ctx, c.Client, t, c.clock.Now().UTC().Format(time.RFC3339))
	case scenario.ActionAbort:
		_, err := actions.Abort(ctx, c.Client, t)
		return err
	case scenario.ActionDrain:
		// kubectl drain --ignore-daemonsets: the flag every node drain runbook adds.
		return drain.Request(ctx, c.Client, a.Node, drain.Options{IgnoreDaemonSets: true})
	case scenario.ActionRollNodes:
		return noderoll.Request(ctx, c.Client, a.Group, noderoll.Options{}, c.clock.Now())
	}
	return fmt.Errorf("line %d: unknown action %q", a.Line, a.Kind)
}
