package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"rollscope/engine/embedded"
	"rollscope/engine/rollingupdate"
	"rollscope/kube/connect"
)

type rollingUpdateFlags struct {
	image, container, pullPolicy string
	updatePeriod, pollInterval   time.Duration
	timeout                      time.Duration
	deploymentKey                string
	rollback, dryRun             bool
	// scenario rehearses on the embedded cluster instead of a live one.
	scenario string
	seed     int64
	conn     *connect.Flags
}

// newRollingUpdate is kubectl's old `rolling-update` for
// ReplicationControllers, with its progress lines, resumable after a crash.
func newRollingUpdate() *cobra.Command {
	f := &rollingUpdateFlags{conn: connect.NewFlags().Offline("rehearse the update on the embedded cluster with --scenario NAME (see rollscope scenarios)")}
	cmd := &cobra.Command{
		Use:   "rolling-update RC [NEXT] --image=IMAGE",
		Short: "Roll a ReplicationController to a new image, as kubectl rolling-update did",
		Long: "Replaces the pods of replication controller RC with pods of a new controller NEXT running IMAGE, a few at\n" +
			"a time (maxSurge 1, maxUnavailable 0), then deletes RC. Without NEXT the new controller is named\n" +
			"RC-<hash> and renamed to RC at the end. The update's state is kept on the controllers: run the same\n" +
			"command again after an interruption to continue it, or with --rollback to abort it.\n" +
			"With --scenario it rehearses on the embedded cluster running that scenario, at full speed.",
		Example: "  rollscope rolling-update frontend --image=nginx:1.27\n" +
			"  rollscope rolling-update frontend --rollback\n" +
			"  rollscope rolling-update web --image=nginx:1.27 --scenario my-rc.yaml",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return badInput("rolling-update takes RC and optionally NEXT (got %d arguments): rollscope rolling-update RC [NEXT] --image=IMAGE", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRollingUpdate(cmd.Context(), cmd.OutOrStdout(), f, args)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.image, "image", "", "the new image; leave out to continue an update in progress")
	fs.StringVar(&f.container, "container", "", "the container whose image changes (default: the first)")
	fs.StringVar(&f.pullPolicy, "image-pull-policy", "", "the new pull policy (Always, Never or IfNotPresent); required when the image does not change")
	fs.DurationVar(&f.updatePeriod, "update-period", rollingupdate.DefaultUpdatePeriod, "time to wait after scaling up, and between checks while waiting for pods")
	fs.DurationVar(&f.pollInterval, "poll-interval", rollingupdate.DefaultPollInterval, "time between checks that a controller has reached its size")
	fs.DurationVar(&f.timeout, "timeout", rollingupdate.DefaultTimeout, "give up when nothing has changed for this long (0: never)")
	fs.StringVar(&f.deploymentKey, "deployment-label-key", rollingupdate.DefaultDeploymentKey, "the label that tells the old and new pods apart")
	fs.BoolVar(&f.rollback, "rollback", false, "abort the update in progress: scale RC back up and delete NEXT")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print what would be done, change nothing")
	fs.StringVar(&f.scenario, "scenario", "", "rehearse on the embedded cluster running this scenario (built-in name or file)")
	fs.Int64Var(&f.seed, "seed", 0, "jitter seed for --scenario; overrides the scenario's seed")
	f.conn.AddTo(fs)
	return cmd
}

func (f *rollingUpdateFlags) request(args []string) (rollingupdate.Request, error) {
	req, err := rollingupdate.NewRequest(rollingupdate.Input{
		Args: args, Image: f.image, Container: f.container, PullPolicy: f.pullPolicy,
		UpdatePeriod: f.updatePeriod, PollInterval: f.pollInterval, Timeout: f.timeout,
		DeploymentKey: f.deploymentKey, Rollback: f.rollback,
	})
	if err != nil {
		return req, usageError{err}
	}
	return req, nil
}

func runRollingUpdate(ctx context.Context, out io.Writer, f *rollingUpdateFlags, args []string) error {
	req, err := f.request(args)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	if f.scenario != "" {
		return rehearseRollingUpdate(ctx, out, f, req)
	}
	conn, err := f.conn.Connect(ctx)
	if err != nil {
		return err
	}
	// One step reads both controllers (and the pods while it labels them)
	// before its one write: on client-go's default 5 requests a second the
	// labelling alone took about a second a pod, kubectl 1.17 about a fifth.
	client, err := conn.WithRate(rollingUpdateQPS, rollingUpdateBurst)
	if err != nil {
		return err
	}
	u := &rollingupdate.Updater{Client: client, Namespace: conn.Namespace, Now: time.Now}
	return finishRollingUpdate(ctx, out, f, u, req, rollingupdate.RealClock{})
}

// The rate limit of one operator's update: the steps themselves are paced
// by --update-period and --poll-interval, not by the client.
const (
	rollingUpdateQPS   = 50
	rollingUpdateBurst = 100
)

// rehearseRollingUpdate runs the update on the embedded cluster, once the
// scenario has settled, on virtual time at full speed.
func rehearseRollingUpdate(ctx context.Context, out io.Writer, f *rollingUpdateFlags, req rollingupdate.Request) error {
	sc, err := loadScenario(f.scenario, 0)
	if err != nil {
		return err
	}
	cl, err := startEmbedded(ctx, sc, embedded.Options{Seed: f.seed})
	if err != nil {
		return err
	}
	defer cl.Runner.Close()
	if _, err := cl.Run(ctx, 0); err != nil {
		return fmt.Errorf("run scenario %s until it settles: %w", sc.Name, err)
	}
	u := &rollingupdate.Updater{Client: cl.Client, Namespace: sc.Namespace, Now: cl.Clock().Now}
	start := cl.Elapsed()
	if err := finishRollingUpdate(ctx, out, f, u, req, rollingupdate.VirtualClock{Runner: cl.Runner}); err != nil {
		return err
	}
	if !f.dryRun {
		fmt.Fprintf(out, "(rehearsed on the embedded cluster, scenario %s: %v of virtual time)\n", sc.Name, (cl.Elapsed() - start).Round(time.Second))
	}
	return nil
}

func finishRollingUpdate(ctx context.Context, out io.Writer, f *rollingUpdateFlags, u *rollingupdate.Updater, req rollingupdate.Request, clk rollingupdate.Clock) error {
	var err error
	if f.dryRun {
		err = rollingupdate.DryRun(ctx, u, req, out)
	} else {
		err = rollingupdate.Run(ctx, u, req, f.timeout, clk, out)
	}
	if rollingupdate.IsBadRequest(err) {
		return usageError{err}
	}
	return err
}
