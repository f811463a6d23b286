package plain

import (
	"context"
	"errors"
	"fmt"
	"time"

	"rollscope/model/argo"
	"rollscope/model/cluster"
	"rollscope/model/kind"
)

// Follows reports whether --plain follows one object of kind k: a
// Deployment as `kubectl rollout status` does, an Argo Rollout as
// `kubectl argo rollouts status` does.
func Follows(k kind.Kind) bool { return k == "" || k == kind.Deployment || k == kind.Rollout }

// ErrWatchTimeout is the plugin's error for a watch that ended (its
// --timeout, or Ctrl-C) before the Rollout was Healthy or Degraded.
var ErrWatchTimeout = errors.New("Rollout status watch exceeded timeout")

// Deadline is ctx for a live --plain run following one object of kind k,
// ended after timeout (0: never) as `kubectl argo rollouts status
// --timeout` ends its watch: the run stops as a Ctrl-C stops it, and
// Outcome says ErrWatchTimeout unless the Rollout was Healthy or Degraded
// first. Only a Rollout's follow has a timeout; another is refused.
func Deadline(ctx context.Context, k kind.Kind, timeout time.Duration) (context.Context, context.CancelFunc, error) {
	switch {
	case timeout < 0:
		return nil, nil, fmt.Errorf("--timeout is a duration of 0 or more, not %s", timeout)
	case timeout > 0 && k != kind.Rollout:
		return nil, nil, errors.New("--timeout bounds --plain rollout/NAME only, as kubectl argo rollouts status --timeout does")
	}
	ctx, cancel := context.WithCancel(ctx)
	if timeout == 0 {
		return ctx, cancel, nil
	}
	timer := time.AfterFunc(timeout, cancel)
	return ctx, func() { timer.Stop(); cancel() }, nil
}

// rolloutBatch prints the followed Rollout's status line, in the words of
// `kubectl argo rollouts status --watch` ("Progressing - more replicas need
// to be updated", "Healthy"), whenever it changes, and ends the run as the
// plugin does: Healthy exits 0, Degraded with the plugin's error. Called
// with p.mu held, after the batch is applied.
func (p *Status) rolloutBatch(b cluster.Batch) {
	v, ok := p.cluster.ArgoRollout(p.Namespace, p.name, b.At)
	if !ok {
		if b.Watch.Synced && !p.ended {
			p.stop(fmt.Errorf("rollouts.argoproj.io %q not found", p.name))
		}
		return
	}
	line := string(v.Phase)
	if v.Message != "" {
		line += " - " + v.Message
	}
	key := v.Namespace + "/" + v.Name
	if p.last[key] != line {
		p.last[key] = line
		say(p.out, p.stamp(b.At), "rollout/%s %s", v.Name, line)
	}
	p.rolloutWhy(key, line, b.At)
	if p.ended || !b.Watch.Synced {
		return
	}
	// The embedded cluster's Rollout is judged once the scenario's
	// actions have run and nothing is under way, as a deployment is.
	if p.Embedded && (p.ran < p.Scripted || !p.Settled()) {
		return
	}
	switch v.Phase {
	case argo.RolloutPhaseHealthy:
		p.stop(nil)
	case argo.RolloutPhaseDegraded:
		p.stop(rolloutFailed{"The rollout is in a degraded state with message: " + v.Message})
	case argo.RolloutPhasePaused:
		if p.Embedded {
			p.stop(rolloutFailed{fmt.Sprintf("rollout %q is paused (%s) and nothing left in the scenario resumes it", v.Name, v.Message)})
		}
	}
}

// rolloutWhy prints the Rollout's fleet row's why — the metric that failed
// an analysis, the pause and how long it has held, the pods' blocker —
// when it names something new and other than the status line.
func (p *Status) rolloutWhy(key, line string, at time.Time) {
	for _, r := range p.cluster.Fleet(p.Namespace, at) {
		if r.Kind != kind.Rollout || r.Name != p.name {
			continue
		}
		why := r.Why
		if why == line {
			why = ""
		}
		if cluster.SameBlocker(p.why[key], why) {
			return
		}
		p.why[key] = why
		if why != "" {
			say(p.out, p.stamp(at), "rollout/%s why %s", r.Name, r.Why)
		}
	}
}
