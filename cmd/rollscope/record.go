package main

import (
	"github.com/spf13/cobra"

	"rollscope/internal/console"
	"rollscope/internal/flightrec"
	"rollscope/kube/connect"
)

func newRecord() *cobra.Command {
	var rf flightrec.Flags
	conn, all := connect.NewFlags(), false
	c := &cobra.Command{Use: "record -o FILE", Short: "Record a live cluster's rollouts headless until stopped (Ctrl-C, SIGTERM), for rollscope replay", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if rf.To == "" {
				return badInput("record needs -o FILE: where to write the recording")
			}
			if err := rf.Open(conn.User()); err != nil {
				return usageError{err}
			}
			ctx, stop := stopOnSignals(cmd.Context())
			defer stop()
			c, err := conn.Connect(ctx)
			if err != nil {
				return err
			}
			ns := c.Namespace
			if all {
				ns = ""
			}
			return flightrec.Record(ctx, c, ns, rf.Rec)
		}}
	rf.AddTo(c.Flags(), "output", "o")
	conn.AddTo(c.Flags())
	c.Flags().BoolVarP(&all, "all-namespaces", "A", false, "record every namespace")
	return c
}

func newReplay() *cobra.Command {
	var at, format, export string
	var speed float64
	c := &cobra.Command{Use: "replay FILE [deploy/NAME]", Short: "Open the console on a recording: space plays or pauses, +/- speed, [ ] steps between changes, :at 03:12:00 jumps", Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "" {
				return flightrec.Postmortem(cmd.OutOrStdout(), args[0], format)
			}
			if export != "" {
				return flightrec.ExportScenario(args[0], at, export)
			}
			theme, keys, err := consoleSettings(&rootFlags{})
			if err != nil {
				return err
			}
			open, err := targetArg(args[1:])
			if err != nil {
				return err
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			var acts actionFlags // a rehearsal forked with F5 acts as the embedded console does
			return flightrec.RunReplay(ctx, args[0], at, speed, consoleOptions(open, theme, keys), console.Run, acts.apply)
		}}
	c.Flags().StringVar(&at, "at", "", "start paused at this clock time of the recording (15:04:05); default: play from its start")
	c.Flags().Float64Var(&speed, "speed", 1, "replay speed, in multiples of the recorded time")
	c.Flags().StringVar(&export, "export-scenario", "", "write the recording at --at (default: its end) as a scenario file for rollscope --scenario, instead of opening the console")
	c.Flags().StringVar(&format, "format", "", "write the recording's timeline as markdown or jsonl (a postmortem) instead of opening the console")
	return c
}
