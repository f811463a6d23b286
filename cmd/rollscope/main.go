// Command rollscope is a terminal console for Kubernetes rollouts. This file
// holds flags and wiring only.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
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
	if errors.As(err, &u) {
		os.Exit(2)
	}
	os.Exit(1)
}

// started is set once a command's own code runs: an error before that is
// cobra refusing the command line.
var started bool

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   commandName() + " [deploy/NAME]",
		Short: "A terminal console for Kubernetes rollouts",
		Long: "rollscope watches a rollout live and drives it: set image, pause, resume, undo, abort, node drains.\n" +
			"With no cluster flags it runs an embedded Kubernetes on a virtual clock, driven by a scenario.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.MaximumNArgs(1),
		Version:       version(),
		PersistentPreRun: func(*cobra.Command, []string) {
			started = true
		},
	}
	root.SetVersionTemplate(commandName() + " {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return badInput("%v — see %s --help", err, c.CommandPath())
	})
	root.RunE = addConsole(root)
	root.AddCommand(newSimulate(), newScenarios())
	root.AddCommand(newRollingUpdate())
	return root
}

// commandName is how the user invoked rollscope: installed as
// kubectl-rollscope, kubectl runs it as `kubectl rollscope`.
func commandName() string {
	if strings.HasPrefix(filepath.Base(os.Args[0]), "kubectl-") {
		return "kubectl rollscope"
	}
	return "rollscope"
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
