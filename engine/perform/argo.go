package perform

import (
	"context"
	"fmt"

	"rollscope/engine/argo"
	"rollscope/model/action"
	"rollscope/model/kind"
)

// commands are the verbs the Rollout's state decides, by verb.
var commands = map[kind.Verb]argo.Command{
	kind.Promote: argo.Promote, kind.PromoteFull: argo.PromoteFull, kind.Abort: argo.Abort,
	kind.Retry: argo.Retry, kind.Pause: argo.Pause, kind.Resume: argo.Resume,
}

// dispatchArgo is the dispatch of the verbs of a kind Argo's controller
// runs (the spec's Argo), through engine/argo; false for other requests.
func (c *Cluster) dispatchArgo(r action.Request) (op, bool) {
	s := r.Spec()
	if !s.Argo {
		return op{}, false
	}
	return c.argoOp(s.Verb, r), true
}

// argoOp is verb v of request r on a Rollout: the input checked before
// anything is read, then engine/argo's read, refusal or send.
func (c *Cluster) argoOp(v kind.Verb, r action.Request) op {
	cl, now := c.cfg.Client, c.cfg.Now
	t := argo.Target{Namespace: r.Namespace, Name: r.Name}
	if cmd, ok := commands[v]; ok {
		return op{send: func(ctx context.Context) (string, error) { return cmd.Send(ctx, cl, t) }}
	}
	switch v {
	case kind.Restart:
		return op{send: func(ctx context.Context) (string, error) { return argo.Restart(ctx, cl, t, now()) }}
	case kind.SetImage:
		return op{check: func() error { return checkImage(r) }, send: func(ctx context.Context) (string, error) {
			return argo.SetImage(ctx, cl, t, r.Container, r.Image)
		}}
	case kind.Undo:
		return op{check: func() error { return checkRevision(r.Revision) }, send: func(ctx context.Context) (string, error) {
			return argo.Undo(ctx, cl, t, r.Revision)
		}}
	case kind.Scale:
		return op{check: func() error { return c.checkScale(r) }, send: func(ctx context.Context) (string, error) { return argo.Scale(ctx, cl, t, r.Replicas) }}
	}
	unknown := fmt.Errorf("rollscope does not send %q to a Rollout", v)
	return op{check: func() error { return unknown }, send: func(context.Context) (string, error) { return "", unknown }}
}
