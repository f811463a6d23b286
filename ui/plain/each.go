package plain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Each follows several clusters at once (--context a,b, --all-contexts),
// one printer each, run as for a cluster alone with a stamp that names its
// context — "[10:30:01 east] deployment/web …" — and ends once every one
// has: with every followed rollout in every cluster finished (nil), or
// with each cluster's failure naming its context (exit 1 when any
// failed). Each line of failed, a context that could not be connected to,
// goes to errOut first. One cluster is followed as it is alone, its stamp
// the clock's.
func Each(ctx context.Context, errOut io.Writer, contexts, failed []string, stamp func(time.Time) string,
	run func(ctx context.Context, i int, stamp func(time.Time) string) error) error {
	for _, line := range failed {
		fmt.Fprintln(errOut, "rollscope: "+line)
	}
	if len(contexts) == 1 && len(failed) == 0 {
		return run(ctx, 0, stamp)
	}
	errs := make([]error, len(contexts))
	var wg sync.WaitGroup
	for i, name := range contexts {
		wg.Go(func() {
			if err := run(ctx, i, func(t time.Time) string { return stamp(t) + " " + name }); err != nil {
				errs[i] = fmt.Errorf("context %q: %w", name, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
