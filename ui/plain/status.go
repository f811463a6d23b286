package plain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"rollscope/model/cluster"
	"rollscope/model/kind"
)

// Status prints a deployment's cluster.StatusLine whenever it changes,
// and the embedded cluster's scripted actions, each line after its stamp.
type Status struct {
	// Embedded is set for the embedded cluster: Scripted is how many
	// scripted actions it has, and Settled reports whether nothing is in
	// flight (no drain, roll or terminating pod).
	Embedded bool
	Scripted int
	Settled  func() bool
	// Namespace is the namespace followed, for a not-found error and
	// checked once listed (gone).
	Namespace string
	// ErrOut hears when the picture stops being current and when it is
	// again (WatchLine); nil says nothing.
	ErrOut io.Writer
	// OnEnd stops the run once every rollout followed has finished or
	// failed.
	OnEnd func()
	// Kind is the kind of the one object followed: "" or a Deployment,
	// or an Argo Rollout (rollout.go), which Namespace names the namespace of.
	Kind kind.Kind

	mu      sync.Mutex // the watch and the embedded runner both print
	out     io.Writer
	name    string // the one deployment to follow; "" follows all
	stamp   func(time.Time) string
	cluster *cluster.Cluster
	last    map[string]string // namespace/name → its last line
	// ran is how many scripted actions have run.
	ran           int
	namespaceSaid bool
	// why is each deployment's last blocker line printed (model.Blocker,
	// the header's "why" line).
	why     map[string]string
	watched cluster.WatchStatus
	// ended is set once the run is over; end is why it stopped (nil: every
	// rollout followed finished).
	ended bool
	end   error
}

// NewStatus prints the status lines of the deployment name ("" for all of
// them) to out, each after stamp's words for when it changed.
func NewStatus(out io.Writer, name string, stamp func(time.Time) string) *Status {
	return &Status{out: out, name: name, stamp: stamp, cluster: cluster.NewCluster(), last: map[string]string{},
		why: map[string]string{}}
}

// Batch takes the watch's next batch and prints what it changed.
func (p *Status) Batch(b cluster.Batch) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.batch(b)
}

// FollowEmbedded ends the run through end once every rollout followed has
// finished or failed and settled says nothing is in flight: judged at each
// batch, and every 100 ms of the wall clock until ctx ends, since the
// embedded cluster can settle after the last change the watch saw (a
// controller's cache a moment behind) and the watch then sends nothing
// more. now is the cluster's clock.
func (p *Status) FollowEmbedded(ctx context.Context, settled func() bool, end func(), now func() time.Time) {
	p.mu.Lock()
	p.Settled, p.OnEnd = settled, end
	p.mu.Unlock()
	go every(ctx, 100*time.Millisecond, now, p.recheck)
}

// recheck judges the run again at at with nothing new from the watch.
func (p *Status) recheck(at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.watched.Synced && !p.ended {
		p.batch(cluster.Batch{At: at, Watch: p.watched})
	}
}

// batch is Batch with p.mu held.
func (p *Status) batch(b cluster.Batch) {
	p.watchChanged(b)
	changed := p.cluster.Apply(b)
	if !changed && !b.Watch.Synced {
		return
	}
	if p.Kind == kind.Rollout {
		p.rolloutBatch(b)
		return
	}
	var followed []cluster.DeploymentSummary
	for _, d := range p.cluster.Deployments() {
		if p.name != "" && d.Name != p.name {
			continue
		}
		followed = append(followed, d)
		line, key := cluster.StatusLine(d), d.Namespace+"/"+d.Name
		if p.last[key] != line {
			p.last[key] = line
			say(p.out, p.stamp(b.At), "%s", line)
		}
		p.blocker(d, key, b.At)
	}
	p.gone(b.At)
	if b.Watch.Synced {
		p.check(followed)
	}
}

// check ends the run once every rollout followed has finished or failed
// (embedded: or is paused with nothing left to resume it) and nothing else
// is under way.
func (p *Status) check(followed []cluster.DeploymentSummary) {
	if p.ended {
		return
	}
	if p.name != "" && len(followed) == 0 {
		if !p.Embedded {
			p.stop(NotFound(p.Namespace, p.name, nil))
		}
		return
	}
	if p.Embedded && (p.ran < p.Scripted || !p.Settled()) {
		return
	}
	var failed []string
	for _, d := range followed {
		switch {
		case d.Failed:
			failed = append(failed, d.Status)
		case d.Done:
		case d.Paused && p.Embedded:
			failed = append(failed, fmt.Sprintf("deployment %q is paused part way and nothing left in the scenario resumes it", d.Name))
		case d.Held != "" && p.Embedded:
			failed = append(failed, fmt.Sprintf("deployment %q: %s, and nothing left in the scenario promotes it", d.Name, d.Held))
		default:
			return
		}
	}
	if len(failed) > 0 {
		p.stop(rolloutFailed{strings.Join(failed, "; ")})
		return
	}
	p.stop(nil)
}

func (p *Status) stop(err error) {
	p.ended, p.end = true, err
	if p.OnEnd != nil {
		p.OnEnd()
	}
}

// Outcome is the run's result once it has stopped: nil when every rollout
// followed finished, or when the run was stopped (--until, Ctrl-C) first —
// but for an Argo Rollout, which the plugin then says its watch timed out.
func (p *Status) Outcome() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.Kind == kind.Rollout && !p.ended {
		return ErrWatchTimeout
	}
	return p.end
}

// blocker prints the deployment's blocker line, in the header's words
// after "why", when it names something else than the one printed before;
// its clock alone ("not ready for 3s", "4s") is no change. A finished
// rollout has none, and prints nothing for it.
func (p *Status) blocker(d cluster.DeploymentSummary, key string, at time.Time) {
	why := p.cluster.Blocker(d.Namespace, d.Name, at)
	if cluster.SameBlocker(p.why[key], why) {
		return
	}
	p.why[key] = why
	if why != "" {
		say(p.out, p.stamp(at), "deployment/%s why %s", d.Name, why)
	}
}

// Action prints a scripted action of the embedded cluster as it is sent.
func (p *Status) Action(at time.Time, kind, target, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ran++
	say(p.out, p.stamp(at), "action %s %s: %s", kind, target, result)
}

// rolloutFailed is a followed rollout that failed: exit 1, as kubectl
// rollout status does, with its words.
type rolloutFailed struct{ why string }

func (r rolloutFailed) Error() string { return r.why }

// NotFound is kubectl's answer for a deployment that is not there, with
// what is there when known.
func NotFound(namespace, name string, have []string) error {
	msg := fmt.Sprintf("deployments.apps %q not found in namespace %q", name, namespace)
	if len(have) > 0 {
		msg += " (there: " + strings.Join(have, ", ") + ")"
	}
	return errors.New(msg)
}
