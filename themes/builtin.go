package themes

// builtins is the one list of the built-in themes, in the order --help,
// errors and the README name them.
var builtins = []struct {
	name string
	make func() Theme
}{
	{"dark", Dark}, {"light", Light}, {"high-contrast", HighContrast}, {"colorblind", Colorblind}, {"none", NoColor},
}

// Dark suits terminals with a dark background.
func Dark() Theme {
	return Theme{
		Name:   "dark",
		Accent: "#7aa2f7", Text: "#c0caf5", Muted: "#737aa2",
		OK: "#9ece6a", Warn: "#e0af68", Bad: "#f7768e",
		Surge: "#7dcfff", Unavailable: "#bb9af7",
		Border: "#3b4261", Selection: "#283457", SelectionText: "#ffffff",
		Terminating: "#ff9e64", Failed: "#db4b4b",
	}
}

// Light suits terminals with a light background.
func Light() Theme {
	return Theme{
		Name:   "light",
		Accent: "#2e7de9", Text: "#3760bf", Muted: "#6172b0",
		OK: "#387068", Warn: "#8c6c3e", Bad: "#c64343",
		Surge: "#007197", Unavailable: "#7847bd",
		Border: "#a8aecb", Selection: "#b7c1e3", SelectionText: "#000000",
		Terminating: "#b15c00", Failed: "#9a1f1f",
	}
}

// HighContrast uses the sixteen basic ANSI colours at full brightness, which
// every terminal renders and which survive poor displays and projectors.
func HighContrast() Theme {
	return Theme{
		Name:   "high-contrast",
		Accent: "14", Text: "15", Muted: "7",
		OK: "10", Warn: "11", Bad: "9",
		Surge: "12", Unavailable: "13",
		Border: "15", Selection: "15", SelectionText: "0",
		Terminating: "3", Failed: "1",
	}
}

// Okabe–Ito: eight colours chosen to stay distinct under the common forms
// of colour blindness.
const (
	okabeBlack     = "#000000"
	okabeOrange    = "#E69F00"
	okabeSkyBlue   = "#56B4E9"
	okabeGreen     = "#009E73"
	okabeYellow    = "#F0E442"
	okabeBlue      = "#0072B2"
	okabeVermilion = "#D55E00"
	okabePurple    = "#CC79A7"
)

// Colorblind draws every meaningful colour from the Okabe–Ito palette, so
// ok / warn / bad never rely on telling red from green.
func Colorblind() Theme {
	return Theme{
		Name:   "colorblind",
		Accent: okabeSkyBlue, Text: "", Muted: "8",
		OK: okabeGreen, Warn: okabeOrange, Bad: okabeVermilion,
		Surge: okabeBlue, Unavailable: okabePurple,
		Border: "8", Selection: okabeBlue, SelectionText: okabeBlack,
		Terminating: okabeYellow, Failed: okabePurple,
	}
}

// NoColor is the colourless theme used when NO_COLOR is set: every colour is
// the terminal's own, and the styles mark emphasis with bold, underline and
// reverse video instead.
func NoColor() Theme {
	return Theme{Name: "none", Plain: true}
}
