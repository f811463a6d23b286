package keys

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// Interrupt always quits the console, whatever the config file says: a key
// map that lost every way out must not make the operator kill the
// terminal. The config file may not give it to anything but quit.
const Interrupt = "ctrl+c"

// modifiers are the prefixes a key press names, in the one order Bubble
// Tea writes them ("ctrl+alt+x", never "alt+ctrl+x").
var modifiers = []string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

// keyNames are the named keys ("up", "pgdown", "f1", "space", …), read from
// Bubble Tea itself: every key code it names, as its String writes it.
var keyNames = func() map[string]bool {
	names := map[string]bool{}
	codes := []rune{tea.KeyEnter, tea.KeyTab, tea.KeyBackspace, tea.KeyEscape, tea.KeySpace}
	for c := tea.KeyExtended + 1; c <= tea.KeyIsoLevel5Shift; c++ {
		codes = append(codes, c)
	}
	for _, c := range codes {
		if s := (tea.Key{Code: c}).String(); utf8.RuneCountInString(s) > 1 {
			names[s] = true
		}
	}
	return names
}()

// checkKey says why s can never match a key press, nil when it can: s must
// be what Bubble Tea's KeyPressMsg.String reports for some key — one
// printable character ("q", "G", "?"), or a named key ("up", "pgdown",
// "f1", "space", "enter", "esc", "tab"), either after modifiers written in
// Bubble Tea's order ("ctrl+x", "alt+x", "shift+tab", "ctrl+alt+x").
func checkKey(s string) error {
	base, mods := s, []string(nil)
	// "+" is a key of its own ("+", "ctrl++"): it is the last part when s
	// ends with it, and the separator before it is not a part.
	if i := strings.LastIndex(s, "+"); i >= 0 && i < len(s)-1 {
		base, mods = s[i+1:], strings.Split(s[:i], "+")
	} else if strings.HasSuffix(s, "++") {
		base, mods = "+", strings.Split(s[:len(s)-2], "+")
	}
	next := 0 // the first modifier still allowed: they come in one order
	for _, m := range mods {
		at := indexOf(modifiers, m)
		switch {
		case at < 0:
			return fmt.Errorf("%q is not a key: %q is not a modifier (%s)", s, m, strings.Join(modifiers, ", "))
		case at < next:
			return fmt.Errorf("%q never arrives: modifiers come in the order %s, as in %q", s, strings.Join(modifiers, "+"), canonical(mods, base))
		}
		next = at + 1
	}
	if keyNames[base] {
		return nil
	}
	r, size := utf8.DecodeRuneInString(base)
	if size != len(base) || r == utf8.RuneError {
		return fmt.Errorf("%q is not a key: write one character (q, G, ?) or a key's name (up, pgdown, f1, space, enter, esc, tab), after ctrl+, alt+ or shift+ if you like", s)
	}
	switch {
	case r == ' ':
		return fmt.Errorf("%q is not a key: the space bar is named \"space\"", s)
	case !unicode.IsPrint(r):
		return fmt.Errorf("%q is not a key: %U is not a printable character", s, r)
	case len(mods) == 1 && mods[0] == "shift":
		// A shifted character arrives as the character it types.
		return fmt.Errorf("%q never arrives: a shifted character is named by what it types, such as %q", s, string(unicode.ToUpper(r)))
	case len(mods) > 0 && unicode.IsUpper(r):
		// With a modifier Bubble Tea reports the unshifted key.
		return fmt.Errorf("%q never arrives: with a modifier a letter is written in lower case, as in %q", s, canonical(append(mods, "shift"), string(unicode.ToLower(r))))
	}
	return nil
}

// canonical writes mods and base in Bubble Tea's order, each modifier once.
func canonical(mods []string, base string) string {
	var out []string
	for _, m := range modifiers {
		if indexOf(mods, m) >= 0 {
			out = append(out, m)
		}
	}
	return strings.Join(append(out, base), "+")
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
