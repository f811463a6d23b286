package flightrec

import (
	"fmt"
	"path/filepath"
	"time"

	"rollscope/ui"
)

// recorded is the scope a recording holds: the context and namespace its
// console began on (all: every namespace), as its header says.
type recorded struct {
	context, namespace string
	all                bool
}

// covers reports whether a console on opts still watches everything the
// recording holds: the same cluster, and its namespace or every one.
func (s recorded) covers(opts *ui.Options) bool {
	return opts.Context == s.context && (opts.AllNamespaces || !s.all && opts.Namespace == s.namespace)
}

func (s recorded) String() string {
	if s.all {
		return "every namespace of " + s.context
	}
	return fmt.Sprintf("namespace %s of %s", s.namespace, s.context)
}

// leave ends the recording when the console is started again on a scope
// that does not cover it (:ns, :ctx, 0): recording on would write the new
// scope's objects into it and leave the old one's standing still, as if
// nothing had happened there since. The console then says so, once it is
// open, in its scope note.
func (r *Recorder) leave(opts *ui.Options) {
	if r.scope == nil || r.stopped != "" || r.scope.covers(opts) {
		return
	}
	_ = r.w.Close() // its error is the one Close returns when the command ends
	at := time.Now()
	if opts.Clock != nil {
		at = opts.Clock()
	}
	r.stopped = fmt.Sprintf("--record-to %s stopped at %s: it records %s, which this console does not show",
		filepath.Base(r.path), at.Format(time.TimeOnly), r.scope)
}
