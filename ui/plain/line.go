package plain

import (
	"fmt"
	"io"
	"regexp"
)

// keyHint is a console key hint inside text the console and --plain share
// (the why line, the fleet's reasons, an action's result): "undo (u)",
// "abort (x)", "resume with r". A key means nothing to a script or a log.
var keyHint = regexp.MustCompile(` \((?:[a-zA-Z?]|esc|enter|tab|ctrl\+[a-z])\)| with [b-zB-HJ-Z]\b`)

// WithoutKeys is text as --plain prints it: the console's key hints taken
// out, the actions they name kept ("undo or abort", "resume, or undo").
func WithoutKeys(text string) string { return keyHint.ReplaceAllString(text, "") }

// say prints one --plain line: the stamp, then the text without key hints.
// Every line --plain prints goes through it.
func say(out io.Writer, stamp, format string, args ...any) {
	fmt.Fprintf(out, "[%s] %s\n", stamp, WithoutKeys(fmt.Sprintf(format, args...)))
}
