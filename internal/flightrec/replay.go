package flightrec

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"rollscope/kube/recording"
	"rollscope/model/cluster"
	"rollscope/ui"
)

// Replay opens the recording at path, at a clock time (paused there) or
// playing from its start at speed, and makes base the console on it:
// the recorded cluster's picture at the replay's clock, the VCR's
// controls, every action off. It returns what feeds the console. A
// recording cut off or damaged part-way is replayed up to there, and its
// problem is the console's scope note.
func Replay(path, at string, speed float64, base ui.Options) (ui.Options, Feed, error) {
	opts, feed, _, err := replay(path, at, speed, base)
	return opts, feed, err
}

// replay is Replay, with the player the console steers.
func replay(path, at string, speed float64, base ui.Options) (ui.Options, Feed, *recording.Player, error) {
	tape, err := recording.Open(path)
	if err != nil {
		return base, nil, nil, err
	}
	if len(tape.Frames) == 0 {
		why := "it holds no change of the cluster"
		if tape.Problem != "" {
			why = tape.Problem
		}
		return base, nil, nil, fmt.Errorf("cannot replay %s: %w", path, errors.New(why))
	}
	p := recording.NewPlayer(tape)
	// Moved first, so that the first picture is the one asked for.
	if err := p.Start(at, speed); err != nil {
		return base, nil, nil, err
	}
	opts := base
	opts.Cluster, opts.Clock, opts.Replay = p.NewPicture(), p.Now, p
	opts.Context, opts.Namespace, opts.AllNamespaces = tape.Header.Context, tape.Header.Namespace, tape.Header.Namespace == ""
	opts.ScopeNote = tape.Problem
	opts.Actions, opts.Logs = nil, nil
	feed := func(ctx context.Context, send func(tea.Msg)) {
		go p.Run(ctx, func(b cluster.Batch) { send(b) })
	}
	return opts, feed, p, nil
}
