package scenario

import (
	"fmt"
	"strings"
)

// Error is a problem found in a scenario file. Its text is always one line,
// "FILE:LINE: message", so that editors and terminals can jump to it.
type Error struct {
	File string
	// Line is 1-based; 0 when the problem concerns the whole file.
	Line    int
	Message string
}

func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.File + ": " + e.Message
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
}

// oneLine folds any line breaks in text that came from elsewhere (a decoder,
// a validator) so that an error never spans lines.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
