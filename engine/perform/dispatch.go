package perform

import (
	"context"
	"fmt"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/canary"
	"rollscope/engine/drain"
	"rollscope/engine/noderoll"
	"rollscope/engine/rollingupdate"
	"rollscope/model/action"
)

// op is one request as this package carries it out: what is refused
// before sending (nil: nothing), and the sending.
type op struct {
	check func() error
	send  func(ctx context.Context) (string, error)
}

// refuse is the check's verdict: nil when there is nothing to check.
func (o op) refuse() error {
	if o.check == nil {
		return nil
	}
	return o.check()
}

// Send checks r and sends it once, saying in a few words what happened:
// "ok", "revision 7 aborted, back on revision 6", "requested — the Nodes
// pane shows its progress". An error wrapping action.ErrNothingToDo means
// nothing was sent because nothing needed to be.
func (c *Cluster) Send(ctx context.Context, r action.Request) (string, error) {
	op := c.dispatch(r)
	if err := c.refuse(r, op); err != nil {
		return "", c.cfg.Explain(err)
	}
	out, err := op.send(ctx)
	return out, c.cfg.Explain(err)
}

// Check refuses bad input before anything is sent: a malformed image, an
// env name the API server rejects, replicas out of range, a revision below
// 1, roll settings such as "150%" — and, on the embedded cluster, a scale
// or a rollout this process has not the memory for.
func (c *Cluster) Check(r action.Request) error {
	return c.refuse(r, c.dispatch(r))
}

// refuse is what is refused of r before it is sent: its own checks, then
// whether its rollout fits in this process (checkSurge).
func (c *Cluster) refuse(r action.Request, o op) error {
	if err := o.refuse(); err != nil {
		return err
	}
	return c.checkSurge(r)
}

// Send sends a scenario's scripted request on client, as the console
// would with --record: set image records its change-cause. It skips the
// dialog's checks — the scenario parser has checked a script's images, the
// engine refuses other bad input itself, in the words a trace keeps, and a
// script's undo to revision 0 goes back to the previous revision as
// kubectl's does. now is the cluster's clock (nil: the wall
// clock).
func Send(ctx context.Context, client kubernetes.Interface, now func() time.Time, r action.Request) (string, error) {
	return New(Config{Client: client, Now: now, Record: true}).dispatch(r).send(ctx)
}

// The words Send answers with, when the request did not fail.
const (
	sentOK       = "ok"
	drainSent    = "requested — the Nodes pane shows its progress"
	rollSent     = "requested"
	rollStopped  = "stopped; drained nodes stay cordoned"
	rcUpdateSent = "asked"
)

// dispatch is rollscope's one switch over action names: the console's
// keys, the forecast's rehearsal and scenario scripts all reach the engine
// through it.
func (c *Cluster) dispatch(r action.Request) op {
	cl, t, now := c.cfg.Client, actions.Target{Namespace: r.Namespace, Name: r.Name}, c.cfg.Now
	switch r.Action {
	case action.SetImage:
		return op{check: func() error { return checkImage(r) }, send: func(ctx context.Context) (string, error) {
			return said(sentOK, actions.SetImage(ctx, cl, t, r.Container, r.Image, c.changeCause(r)))
		}}
	case action.SetEnv:
		return op{check: func() error { return checkEnv(r) }, send: func(ctx context.Context) (string, error) {
			name, value, remove, err := r.EnvChange()
			if err != nil {
				return "", err
			}
			return said(sentOK, actions.SetEnv(ctx, cl, t, r.Container, name, value, remove))
		}}
	case action.Scale:
		return op{check: func() error { return c.checkScale(r) }, send: func(ctx context.Context) (string, error) {
			return said(sentOK, actions.Scale(ctx, cl, t, r.Replicas))
		}}
	case action.Restart:
		return op{send: func(ctx context.Context) (string, error) {
			return said(sentOK, actions.Restart(ctx, cl, t, now().UTC().Format(time.RFC3339)))
		}}
	case action.Pause:
		return op{send: func(ctx context.Context) (string, error) { return said(sentOK, actions.Pause(ctx, cl, t)) }}
	case action.Resume:
		return op{send: func(ctx context.Context) (string, error) { return said(sentOK, actions.Resume(ctx, cl, t)) }}
	case action.Undo:
		return op{check: func() error { return checkRevision(r.Revision) }, send: func(ctx context.Context) (string, error) {
			done, err := c.undo(ctx, r)
			return said(done.String(), err)
		}}
	case action.Abort:
		return op{send: func(ctx context.Context) (string, error) {
			// A canary's abort also puts its strategy back (engine/canary).
			done, err := canary.Abort(ctx, cl, t)
			return said(done.String(), err)
		}}
	case action.Canary, action.Promote, action.PromoteAll:
		return c.canary(r)
	case action.Cordon:
		return op{send: func(ctx context.Context) (string, error) { return c.eachNode(ctx, r, sentOK, drain.Cordon) }}
	case action.Uncordon:
		return op{send: func(ctx context.Context) (string, error) { return c.eachNode(ctx, r, sentOK, drain.Uncordon) }}
	case action.Drain:
		o := drainOptions(r.Drain)
		return op{send: func(ctx context.Context) (string, error) {
			return c.eachNode(ctx, r, drainSent, func(ctx context.Context, cl kubernetes.Interface, node string) error {
				return drain.Request(ctx, cl, node, o)
			})
		}}
	case action.RollGroup:
		return op{check: func() error { _, err := c.PlanRoll(r.Name, r.Roll); return err }, send: func(ctx context.Context) (string, error) {
			return said(rollSent, noderoll.Request(ctx, cl, r.Name, c.rollOptions(r.Roll), now()))
		}}
	case action.NextStep:
		return op{send: func(ctx context.Context) (string, error) {
			return said(sentOK, noderoll.ContinueOrRestart(ctx, cl, r.Name, now()))
		}}
	case action.PauseRoll:
		steer := noderoll.Pause
		if r.ResumeRoll {
			steer = noderoll.Resume
		}
		return op{send: func(ctx context.Context) (string, error) { return said(sentOK, steer(ctx, cl, r.Name)) }}
	case action.StopRoll:
		return op{send: func(ctx context.Context) (string, error) { return said(rollStopped, noderoll.Stop(ctx, cl, r.Name)) }}
	case action.RCUpdate:
		return op{send: func(ctx context.Context) (string, error) {
			return said(rcUpdateSent, rollingupdate.Ask(ctx, cl, r.Namespace, rcUpdate(r)))
		}}
	case action.RCAbort:
		return op{send: func(ctx context.Context) (string, error) {
			return said(rcUpdateSent, rollingupdate.AskAbort(ctx, cl, r.Namespace, r.Name))
		}}
	}
	// A Rollout's go as Argo's kubectl plugin sends them; the StatefulSet
	// and DaemonSet actions through their kinds' table.
	if o, ok := c.dispatchArgo(r); ok {
		return o
	}
	if o, ok := c.dispatchWorkload(r); ok {
		return o
	}
	unknown := unknownAction(r.Action)
	return op{check: func() error { return unknown }, send: func(context.Context) (string, error) { return "", unknown }}
}

// said is words when err is nil, and err otherwise.
func said(words string, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return words, nil
}

// unknownAction refuses a name no spec of a write has, listing the ones
// there are (a key that only reads, such as logs, sends nothing).
func unknownAction(n action.Name) error {
	var names []string
	for _, s := range action.Specs() {
		if s.Writes {
			names = append(names, string(s.Name))
		}
	}
	return fmt.Errorf("rollscope has no action %q — use one of %s", n, strings.Join(names, ", "))
}
