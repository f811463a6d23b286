package embedded

import (
	"context"

	"rollscope/engine/play"
	"rollscope/engine/scenario"
)

// runAction performs one scripted action as the console's keys would
// (engine/play, shared with live runs), and reports its result.
func (c *Cluster) runAction(ctx context.Context, a scenario.Action) {
	// Acting until the runner has applied what the action wrote: Do runs
	// after the drain that follows this timer (see Cluster.acting).
	c.acting.Add(1)
	defer c.Runner.Do(func() { c.acting.Add(-1) })
	p := play.Player{Client: c.Client, Namespace: c.Scenario.Namespace, Now: c.clock.Now}
	target, result := p.Run(ctx, a)
	now := c.clock.Now()
	for _, fn := range c.onAction {
		fn(now, a.Kind, target, result)
	}
}
