// Package console runs the console's Bubble Tea program for every command
// that opens it: the embedded cluster, live clusters, a scenario's
// clusters, a replay.
package console

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/internal/profile"
	"rollscope/ui"
	"rollscope/ui/terminal"
)

// Pace is the least time between two redraws while the watch churns
// (ui/pace.go): a rollout's counts move four times a second instead of
// twenty, for a sixth of the CPU; a rollout that finishes, fails or pauses
// is shown at once.
const Pace = 250 * time.Millisecond

// FleetPace is Pace while the fleet is shown alone. Its rows count in
// seconds (the age of each rollout, "no progress for 2m10s") and re-sort
// by urgency and recency as they move: with hundreds of rollouts at once,
// four times a second reshuffled the rows faster than they could be read,
// at a sixth of the console's CPU (docs/performance.md). A rollout that
// finishes, fails or pauses is still shown at once.
const FleetPace = time.Second

// Run runs the Bubble Tea program with feed (the clusters' watches)
// sending to it until the program ends, and returns the scope the operator
// asked to switch to, if they did.
func Run(ctx context.Context, opts ui.Options, feed func(context.Context, func(tea.Msg))) (ui.Switch, bool, error) {
	stopProfile, err := profile.Console()
	if err != nil {
		return ui.Switch{}, false, badInput{err}
	}
	defer stopProfile()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if opts.Pace == 0 {
		opts.Pace = Pace
	}
	// The console draws its own frames, only the lines that changed
	// (ui/terminal); Bubble Tea reads the keys and runs the model.
	con, err := terminal.Open(os.Stdout)
	if err != nil {
		return ui.Switch{}, false, err
	}
	defer con.Close()
	model, unwrapKeys, stopKeys, err := profile.Keys(con.Model(ui.New(opts)))
	if err != nil {
		return ui.Switch{}, false, badInput{err}
	}
	defer stopKeys()
	model, unwrapBatches, stopBatches, err := profile.Batches(model)
	if err != nil {
		return ui.Switch{}, false, badInput{err}
	}
	defer stopBatches()
	p := tea.NewProgram(model, append(con.Options(), tea.WithContext(ctx))...)
	con.Resizes(ctx, p.Send)
	feed(ctx, p.Send)
	final, err := p.Run()
	if err != nil && ctx.Err() == nil {
		return ui.Switch{}, false, fmt.Errorf("the console stopped: %w", err)
	}
	if m, ok := terminal.Unwrap(unwrapKeys(unwrapBatches(final))).(ui.Model); ok && ctx.Err() == nil {
		next, again := m.Switch()
		return next, again, nil
	}
	return ui.Switch{}, false, nil
}

// OneCore runs a live console's goroutines on one processor, unless the
// operator set GOMAXPROCS. The console's work is a chain of hand-offs (watch
// stream → decoder → cache → model → frame), each a few microseconds; with
// more than one processor every hand-off wakes an idle thread that spins
// looking for work, which cost the console 13–15% of its CPU beside the
// same rollout on one. Nothing it does needs two cores at once. The
// embedded console keeps them all: its cluster runs in the same process.
func OneCore() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

// badInput is a setting the console cannot start with: rollscope exits 2.
type badInput struct{ error }

func (badInput) BadInput() bool { return true }
