package themes

import (
	"fmt"
	"os"
	"strings"
)

// Theme is a palette in the operator's terms. A colour is a "#rrggbb" hex
// string or an ANSI colour number ("0"–"255"); "" leaves the terminal's
// default colour, which is how the colourless theme is built.
type Theme struct {
	Name string

	Accent        string // titles, the focused pane, the selected deployment
	Text          string // ordinary values
	Muted         string // labels, ages, old ReplicaSets, pending pods
	OK            string // ready, available, done
	Warn          string // not ready yet, progressing
	Bad           string // failing, exhausted budgets, lost watch
	Surge         string // the surge headroom bar
	Unavailable   string // the unavailable headroom bar
	Border        string // separators between panes
	Selection     string // background of the selected row
	SelectionText string // text on the selected row
	Terminating   string // pods being deleted
	Failed        string // pods that failed or exited

	// Plain is set for the colourless theme: emphasis then comes from
	// bold, underline and reverse video only.
	Plain bool
}

// colourFields lists the YAML key and the field of every colour, in the
// order help texts and errors show them.
func (t *Theme) colourFields() []struct {
	Key string
	Ptr *string
} {
	return []struct {
		Key string
		Ptr *string
	}{
		{"accent", &t.Accent}, {"text", &t.Text}, {"muted", &t.Muted},
		{"ok", &t.OK}, {"warn", &t.Warn}, {"bad", &t.Bad},
		{"surge", &t.Surge}, {"unavailable", &t.Unavailable},
		{"border", &t.Border}, {"selection", &t.Selection},
		{"selection-text", &t.SelectionText},
		{"terminating", &t.Terminating}, {"failed", &t.Failed},
	}
}

// Names lists the built-in themes.
func Names() []string {
	names := make([]string, 0, len(builtins))
	for _, b := range builtins {
		names = append(names, b.name)
	}
	return names
}

// Listed names the built-in themes in a sentence: "dark, light, … or none".
func Listed() string {
	names := Names()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Builtin returns the built-in theme called name.
func Builtin(name string) (Theme, bool) {
	for _, b := range builtins {
		if b.name == name {
			return b.make(), true
		}
	}
	return Theme{}, false
}

// NoColorRequested reports whether the NO_COLOR convention
// (https://no-color.org) asks for output without colour: the variable is set
// and not empty.
func NoColorRequested() bool { return os.Getenv("NO_COLOR") != "" }

// Auto picks the theme for a terminal whose background is dark or light,
// or the colourless theme when NO_COLOR is set.
func Auto(hasDarkBackground bool) Theme {
	if NoColorRequested() {
		return NoColor()
	}
	if hasDarkBackground {
		return Dark()
	}
	return Light()
}

// validColour accepts "", "#rgb", "#rrggbb" and ANSI numbers 0–255.
func validColour(s string) error {
	if s == "" {
		return nil
	}
	if strings.HasPrefix(s, "#") {
		hex := s[1:]
		if len(hex) != 3 && len(hex) != 6 {
			return fmt.Errorf("colour %q: want #rgb or #rrggbb", s)
		}
		for _, r := range hex {
			if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
				return fmt.Errorf("colour %q: %q is not a hex digit", s, r)
			}
		}
		return nil
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return fmt.Errorf("colour %q: want #rrggbb or an ANSI colour number 0-255", s)
		}
		n = n*10 + int(r-'0')
		if n > 255 {
			return fmt.Errorf("colour %q: ANSI colour numbers stop at 255", s)
		}
	}
	return nil
}
