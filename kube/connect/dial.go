package connect

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"k8s.io/utils/clock"
)

// Attempt is one try at connecting to one context: Conn when it answered,
// else Err, one line naming the context. At is when the try began, Again
// when a context that failed is tried next.
type Attempt struct {
	Context string
	Conn    *Connection
	Err     error
	At      time.Time
	Again   time.Time
}

// Dialing are the contexts the flags name being connected to, each on its
// own and all at once: a context that does not answer (a server that
// accepts and never replies waits out checkTimeout) holds up none of the
// others, and one that failed is tried again with backoff — 1 s, 2 s, 4 s,
// up to retryCap — until it answers or Stop. Every try is an Attempt, in
// the order they end.
type Dialing struct {
	names    []string
	attempts chan Attempt
	stop     context.CancelFunc
}

// retryFirst and retryCap bound the wait before a context that failed is
// tried again.
const (
	retryFirst = time.Second
	retryCap   = 30 * time.Second
)

// Dial starts connecting to every context the flags name (Names). Bad
// input (an unknown context) is its error, before anything is sent.
func (f *Flags) Dial(ctx context.Context) (*Dialing, error) {
	names, err := f.Names()
	if err != nil {
		return nil, err
	}
	several := len(names) > 1
	return dialEach(ctx, names, func(ctx context.Context, name string) (*Connection, error) {
		one := *f
		if name != "" {
			one.context, one.allContexts = name, false
		}
		c, err := one.Connect(ctx)
		var named *Error
		if err != nil && several && !(errors.As(err, &named) && named.context == name) {
			err = fail(err, "context %q: %v", name, err)
		}
		return c, err
	}, clock.RealClock{}), nil
}

// dialEach tries every name through dial, each on its own goroutine, as
// Dial says; clk times the retries.
func dialEach(ctx context.Context, names []string, dial func(context.Context, string) (*Connection, error), clk clock.Clock) *Dialing {
	ctx, stop := context.WithCancel(ctx)
	d := &Dialing{names: names, attempts: make(chan Attempt), stop: stop}
	for _, name := range names {
		go func() {
			for wait := retryFirst; ; wait = min(2*wait, retryCap) {
				a := Attempt{Context: name, At: clk.Now()}
				a.Conn, a.Err = dial(ctx, name)
				if a.Err != nil {
					a.Again = clk.Now().Add(wait)
				}
				select {
				case d.attempts <- a:
				case <-ctx.Done():
					return
				}
				if a.Err == nil {
					return
				}
				select {
				case <-clk.After(wait):
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	return d
}

// Names are the contexts being connected to, in the order named.
func (d *Dialing) Names() []string { return d.names }

// Attempts are the tries as they end; read them after Start for those
// that come later.
func (d *Dialing) Attempts() <-chan Attempt { return d.attempts }

// Stop gives up on every context not connected yet.
func (d *Dialing) Stop() { d.stop() }

// Start waits until a console can open: one context has answered (with any
// others that answered by then), or every one has been tried once.
// answered are those connected, tried the ones that failed, pending the
// names not heard from yet, each in the order named. When every one
// failed, the error says why of each on one line (of one context:
// Connect's own).
func (d *Dialing) Start(ctx context.Context) (answered []*Connection, tried []Attempt, pending []string, err error) {
	heard := map[string]bool{}
	take := func(a Attempt) {
		heard[a.Context] = true
		if a.Err != nil {
			// A context that failed fast may fail again while another
			// is still silent: its last try says it.
			tried = slices.DeleteFunc(tried, func(t Attempt) bool { return t.Context == a.Context })
			tried = append(tried, a)
		} else {
			answered = append(answered, a.Conn)
		}
	}
	for len(answered) == 0 && len(heard) < len(d.names) {
		select {
		case a := <-d.attempts:
			take(a)
		case <-ctx.Done():
			return nil, nil, nil, ctx.Err()
		}
	}
	for more := true; more && len(heard) < len(d.names); {
		select {
		case a := <-d.attempts:
			take(a)
		default:
			more = false
		}
	}
	// In the order named, whichever answered first.
	slices.SortStableFunc(tried, func(a, b Attempt) int {
		return slices.Index(d.names, a.Context) - slices.Index(d.names, b.Context)
	})
	slices.SortStableFunc(answered, func(a, b *Connection) int {
		return slices.Index(d.names, a.Context) - slices.Index(d.names, b.Context)
	})
	if len(answered) == 0 {
		if len(tried) == 1 {
			return nil, nil, nil, tried[0].Err
		}
		errs, lines := make([]error, len(tried)), make([]string, len(tried))
		for i, a := range tried {
			errs[i], lines[i] = a.Err, a.Err.Error()
		}
		return nil, nil, nil, fail(errors.Join(errs...), "%s", strings.Join(lines, "; "))
	}
	for _, name := range d.names {
		if !heard[name] {
			pending = append(pending, name)
		}
	}
	return answered, tried, pending, nil
}
