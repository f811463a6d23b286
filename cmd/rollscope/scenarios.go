package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"rollscope/engine/scenario"
)

func newScenarios() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios",
		Short: "List the built-in scenarios",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			for _, name := range scenario.Builtins() {
				sc, err := scenario.Load(name)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "%-14s %s\n%-14s %s\n", name, scenario.BuiltinDescription(name), "", sc.Summary())
			}
			return nil
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "show NAME",
		Short: "Print a built-in scenario as YAML, to copy and edit",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, ok := scenario.BuiltinSource(args[0])
			if !ok {
				return badInput("no built-in scenario %q (built-in: %s)", args[0], strings.Join(scenario.Builtins(), ", "))
			}
			_, err := cmd.OutOrStdout().Write(src)
			return err
		},
	})
	return cmd
}
