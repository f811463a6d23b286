// Command rollscope is a terminal console for Kubernetes rollouts. This file
// holds flags and wiring only.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"rollscope/internal/buildinfo"
	"rollscope/kube/connect"
)

// usageError marks bad input: rollscope exits 2 and prints one line.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func main() {
	// Before anything can log: no library writes to the terminal.
	quietClientGo()
	root := newRoot()
	cmd, err := root.ExecuteC()
	if err == nil {
		return
	}
	var u usageError
	if !started && !errors.As(err, &u) {
		// Cobra's own checks (arguments, unknown commands) refused the
		// command line before any command ran: bad input like ours.
		err = badInput("%v — see %s --help", err, cmd.CommandPath())
	}
	fmt.Fprintln(os.Stderr, "rollscope: "+oneLine(err.Error()))
	var bad interface{ BadInput() bool } // the kubeconfig's contexts
	if errors.As(err, &u) || errors.As(err, &bad) && bad.BadInput() {
		os.Exit(2)
	}
	os.Exit(1)
}

// started is set once a command's own code runs: an error before that is
// cobra refusing the command line.
var started bool

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "rollscope [deploy/NAME]",
		Short: "A terminal console for Kubernetes rollouts",
		Long: "rollscope watches a rollout live and drives it: set image, pause, resume, undo, abort, node drains.\n" +
			"With no cluster flags it runs an embedded Kubernetes on a virtual clock, driven by a scenario.",
		SilenceUsage:  true,
		SilenceErrors: true,
		// A mistyped command is refused before anything connects.
		Args:    cobra.MatchAll(notACommand, cobra.MaximumNArgs(1)),
		Version: buildinfo.Version(),
		// Installed as kubectl-rollscope, every usage line reads `kubectl rollscope …`.
		Annotations:                map[string]string{cobra.CommandDisplayNameAnnotation: buildinfo.CommandName()},
		SuggestionsMinimumDistance: 2,
		PersistentPreRun: func(*cobra.Command, []string) {
			started = true
		},
	}
	root.SetVersionTemplate(buildinfo.CommandName() + " {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if near := notACommand(c, c.Flags().Args()); near != nil {
			err = near
		}
		return badInput("%v — see %s --help", err, c.CommandPath())
	})
	root.RunE = addConsole(root)
	root.AddCommand(newSimulate(), newScenarios())
	root.AddCommand(newRollingUpdate(), newRecord(), newReplay())
	root.InitDefaultCompletionCmd()
	// A completion that runs refuses an unknown shell (it printed help, exit 0).
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	}
	return root
}

// notACommand refuses a first argument that cannot name a workload, or
// that reads as a mistyped command, before any request is sent for it.
func notACommand(c *cobra.Command, args []string) error {
	if len(args) == 0 || c.HasParent() {
		return nil
	}
	return connect.CheckArg(args[0], c.SuggestionsFor)
}

// oneLine keeps error output to a single line whatever the cause wrapped.
func oneLine(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		out = append(out, r)
	}
	return string(out)
}
