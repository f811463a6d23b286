package plain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Arrival is how trying one of several clusters ended: Conn, to follow, or
// Err, why not (one line naming its context).
type Arrival[C any] struct {
	Context string
	Conn    C
	Err     error
}

// Each follows several clusters at once (--context a,b, --all-contexts),
// each from when it answers — one that answers late, or only after a retry,
// holds up none of the others — one printer each, run as for a cluster
// alone with a stamp that names its context: "[10:30:01 east]
// deployment/web …". It ends once every cluster named has been heard from
// and every one followed has ended: with every followed rollout in every
// cluster finished (nil), or with each cluster's failure naming its
// context (exit 1 when any failed). A cluster that could not be connected
// to is one line on errOut, said once; when none answers, the error says
// why of each on one line. One cluster is followed as it is alone, its
// stamp the clock's.
func Each[C any](ctx context.Context, errOut io.Writer, names []string, arrivals <-chan Arrival[C], stamp func(time.Time) string,
	run func(ctx context.Context, conn C, stamp func(time.Time) string) error) error {
	if len(names) == 1 {
		select {
		case a := <-arrivals:
			if a.Err != nil {
				return a.Err
			}
			return run(ctx, a.Conn, stamp)
		case <-ctx.Done():
			return nil
		}
	}
	heard, answered := map[string]bool{}, false
	var held []Arrival[C] // failures while none has answered
	ended, running := make(chan error), 0
	var errs []error
	for len(heard) < len(names) || running > 0 {
		select {
		case a := <-arrivals:
			again := heard[a.Context]
			heard[a.Context] = true
			switch {
			case a.Err != nil && again:
				// Tried again and still not: said once.
			case a.Err != nil && !answered:
				if held = append(held, a); len(held) == len(names) {
					return noneAnswered(names, held)
				}
			case a.Err != nil:
				fmt.Fprintln(errOut, "rollscope: "+a.Err.Error())
			default:
				if !answered {
					answered = true
					for _, h := range held {
						fmt.Fprintln(errOut, "rollscope: "+h.Err.Error())
					}
				}
				running++
				go func() {
					err := run(ctx, a.Conn, func(t time.Time) string { return stamp(t) + " " + a.Context })
					if err != nil {
						err = fmt.Errorf("context %q: %w", a.Context, err)
					}
					ended <- err
				}()
			}
		case err := <-ended:
			running--
			errs = append(errs, err)
		case <-ctx.Done():
			for ; running > 0; running-- {
				errs = append(errs, <-ended)
			}
			return errors.Join(errs...)
		}
	}
	return errors.Join(errs...)
}

// noneAnswered is one line saying why of each cluster, in the order named.
func noneAnswered[C any](names []string, failed []Arrival[C]) error {
	slices.SortStableFunc(failed, func(a, b Arrival[C]) int { return slices.Index(names, a.Context) - slices.Index(names, b.Context) })
	errs, lines := make([]error, len(failed)), make([]string, len(failed))
	for i, a := range failed {
		errs[i], lines[i] = a.Err, a.Err.Error()
	}
	return &joined{line: strings.Join(lines, "; "), errs: errs}
}

// joined is several errors said on one line.
type joined struct {
	line string
	errs []error
}

func (j *joined) Error() string   { return j.line }
func (j *joined) Unwrap() []error { return j.errs }
