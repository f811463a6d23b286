package connect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Several contexts at once. --context a,b and --all-contexts name several
// kubeconfig contexts; each is connected to as if named alone (its own
// server, credentials, rate limit and namespace, -n and -A applying to
// each), at the same time, so that one that does not answer costs the
// others nothing. One context is the one-element case.

// Names are the contexts the flags name: --all-contexts every one of the
// kubeconfig's (sorted), --context a,b those, else the one --context names
// or the current-context ("" when only --server was given). A context the
// kubeconfig does not hold is bad input; so is --all-contexts on a
// kubeconfig without any.
func (f *Flags) Names() ([]string, error) {
	if !f.allContexts && !strings.Contains(f.context, ",") {
		return []string{f.context}, nil
	}
	loader := f.loader()
	raw, err := loader.RawConfig()
	if err != nil {
		return nil, fail(err, "cannot read the kubeconfig %s: %v — fix the file, or name another with --kubeconfig", files(loader), err)
	}
	known := f.Contexts()
	if f.allContexts {
		if len(known) == 0 {
			return nil, badInputf("the kubeconfig %s has no contexts: --all-contexts has nothing to show", files(loader))
		}
		return known, nil
	}
	var names []string
	for name := range strings.SplitSeq(f.context, ",") {
		if name = strings.TrimSpace(name); name == "" || slices.Contains(names, name) {
			continue
		}
		if err := f.checkContext(raw, name, loader); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}

// ConnectEach connects to every context the flags name (Names), all at
// once. conns are those that answered, in the order named; failed says,
// one line each naming the context, why the others did not. When none
// answered the error says why of each (of one: Connect's alone).
func (f *Flags) ConnectEach(ctx context.Context) (conns []*Connection, failed Failures, err error) {
	names, err := f.Names()
	if err != nil {
		return nil, nil, err
	}
	results := make([]*Connection, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			one := *f
			if name != "" {
				one.context, one.allContexts = name, false
			}
			results[i], errs[i] = one.Connect(ctx)
			if errs[i] != nil && len(names) > 1 && !strings.Contains(errs[i].Error(), fmt.Sprintf("%q", name)) {
				errs[i] = fail(errs[i], "context %q: %v", name, errs[i])
			}
		})
	}
	wg.Wait()
	for i, name := range names {
		if errs[i] != nil {
			failed = append(failed, Failed{Context: name, Err: errs[i]})
			continue
		}
		conns = append(conns, results[i])
	}
	if len(conns) == 0 {
		if len(names) == 1 {
			return nil, nil, errs[0]
		}
		// None answered: one line, each context's reason in it.
		return nil, nil, fail(errors.Join(errs...), "%s", strings.Join(failed.Lines(), "; "))
	}
	return conns, failed, nil
}

// Failed is a context that could not be connected to, and why.
type Failed struct {
	Context string
	Err     error
}

// Failures are the contexts that could not be connected to.
type Failures []Failed

// Lines are their errors, one line each naming its context.
func (fs Failures) Lines() []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Err.Error()
	}
	return out
}

// ByContext are their errors by context.
func (fs Failures) ByContext() map[string]string {
	out := make(map[string]string, len(fs))
	for _, f := range fs {
		out[f.Context] = f.Err.Error()
	}
	return out
}

// ContextsOf are the connections' contexts, in order.
func ContextsOf(conns []*Connection) []string {
	out := make([]string, len(conns))
	for i, c := range conns {
		out[i] = c.Context
	}
	return out
}

// BadInput marks an Error that is the operator's input, not the cluster
// (an unknown context): the command exits 2.
func (e *Error) BadInput() bool { return e.bad }

func badInputf(format string, args ...any) *Error {
	e := fail(nil, format, args...)
	e.bad = true
	return e
}
