package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"rollscope/themes"
)

// Every flag of every command has a help line that reads as written: pflag
// takes a `quoted` word of the help text for the value's name (it printed
// `-f, --file rollscope scenarios`), so none may have one, and each value
// is named by its type.
func TestEveryFlagsHelpLineReadsAsWritten(t *testing.T) {
	root := newRoot()
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpFlag()
	valueName := regexp.MustCompile(`^[a-zA-Z]*$`)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		check := func(f *pflag.Flag) {
			if f.Hidden {
				return // never printed
			}
			name, usage := pflag.UnquoteUsage(f)
			if strings.Contains(f.Usage, "`") || !valueName.MatchString(name) || strings.TrimSpace(usage) == "" {
				t.Errorf("%s --%s: help line reads %q %q; want the value named by its type and the help as written", c.CommandPath(), f.Name, name, usage)
			}
		}
		c.LocalFlags().VisitAll(check)
		c.InheritedFlags().VisitAll(check)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)

	// The themes --theme names are the ones it accepts: the themes registry's.
	usage := root.Flags().Lookup("theme").Usage
	for _, name := range themes.Names() {
		if !strings.Contains(usage, name) {
			t.Errorf("--theme help %q does not name the built-in theme %q", usage, name)
		}
	}
}

// What the user reads: simulate's --file is a string with its help as
// written, and a theme that is not there is refused naming exactly the
// themes --help names.
func TestFlagHelpAndThemeErrorAsTheUserReadsThem(t *testing.T) {
	help := rollscope(t, "simulate", "--help").stdout
	if !regexp.MustCompile(`\n  -f, --file string +scenario file, or the name of a built-in scenario \(rollscope scenarios lists them\)\n`).MatchString(help) {
		t.Errorf("simulate --help:\n%s", help)
	}
	listed := regexp.MustCompile(`--theme string +colour theme: (.*), or a theme file`).FindStringSubmatch(rollscope(t, "--help").stdout)
	r := rollscope(t, "--theme", "nosuch")
	if listed == nil || r.code != 2 || !strings.Contains(r.stderr, `theme "nosuch" is neither a built-in (`+listed[1]+`) nor an existing file`) {
		t.Errorf("--help lists themes %q; --theme nosuch: exit %d, %q", listed, r.code, r.stderr)
	}
}
