package plain

import (
	"fmt"
	"io"
	"time"
)

// Progress rewrites one status line on w — virtual time reached and
// wall time spent — every `every` after `after`, until stop is called, which
// clears the line again so that what follows starts on a clean one.
func Progress(w io.Writer, virtual func() time.Duration, after, every time.Duration) (stop func()) {
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
