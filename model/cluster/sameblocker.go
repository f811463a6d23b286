package cluster

import "regexp"

// clockWords are the durations a blocker line counts with the clock: "not
// ready for 3m12s", "available in 4s".
var clockWords = regexp.MustCompile(`\b(for|in) \d+(h\d+m|m\d+s|s)\b`)

// SameBlocker reports whether two blocker lines name the same thing held
// back for the same reason, telling apart only what the clock does not
// count: "web-1 not ready for 3s" and "web-1 not ready for 4s" are the
// same blocker, a pod more or another pod is not. A log of the rollout
// prints a blocker once, when it starts holding, not once a second.
func SameBlocker(a, b string) bool {
	if a == b {
		return true
	}
	return clockWords.ReplaceAllString(a, "$1 …") == clockWords.ReplaceAllString(b, "$1 …")
}
