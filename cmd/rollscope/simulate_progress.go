package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// A full-speed run of a large scenario takes tens of seconds with nothing on
// the terminal while the trace goes to a file: progress says it is alive and
// how far it got. It starts only after progressAfter, so that the small runs
// people pipe and diff print nothing extra, and only when stderr is a
// terminal, so that logs and CI output stay clean.
const (
	progressAfter = 3 * time.Second
	progressEvery = time.Second
)

// stderrIsTerminal reports whether progress lines would reach a person.
func stderrIsTerminal() bool {
	fi, err := os.Stderr.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// simulateProgress rewrites one status line on w — virtual time reached and
// wall time spent — every `every` after `after`, until stop is called, which
// clears the line again so that what follows starts on a clean one.
func simulateProgress(w io.Writer, virtual func() time.Duration, after, every time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	begun := time.Now()
	go func() {
		defer close(finished)
		wait := time.NewTimer(after)
		defer wait.Stop()
		select {
		case <-done:
			return
		case <-wait.C:
		}
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			fmt.Fprintf(w, "\r\033[Ksimulate: %s of virtual time in %s", virtual().Round(time.Second), time.Since(begun).Round(time.Second))
			select {
			case <-done:
				fmt.Fprint(w, "\r\033[K")
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
