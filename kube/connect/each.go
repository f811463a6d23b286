package connect

import (
	"strings"

	"rollscope/model/cluster"
)

// Several contexts at once. --context a,b and --all-contexts name several
// kubeconfig contexts; each is connected to as if named alone (its own
// server, credentials, rate limit and namespace, -n and -A applying to
// each), at the same time, so that one that does not answer costs the
// others nothing (Dial, dial.go). One context is the one-element case.

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
	names := cluster.ContextNames(f.context)
	for _, name := range names {
		if err := f.checkContext(raw, name, loader); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// BadInput marks an Error that is the operator's input, not the cluster
// (an unknown context): the command exits 2.
func (e *Error) BadInput() bool { return e.bad }

func badInputf(format string, args ...any) *Error {
	e := fail(nil, format, args...)
	e.bad = true
	return e
}
