//go:build race

package perform_test

// underRace: the race detector makes the embedded cluster about ten times
// slower; tests that repeat one code path over every case run a sample of
// it (the unit run runs them all).
const underRace = true
