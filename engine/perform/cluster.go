package perform

import (
	"context"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/forecast"
	"rollscope/engine/nodegroup"
	"rollscope/model/action"
)

// Config is what a Cluster sends with.
type Config struct {
	Client kubernetes.Interface
	// Now is the cluster's clock: restart's restartedAt stamp, a roll's
	// start, the drain preview's pod ages. nil is the wall clock.
	Now func() time.Time
	// Record makes set image record its command in
	// kubernetes.io/change-cause (the console's --record).
	Record bool
	// DeleteNodes makes node-group rolls delete each drained Node object
	// (--delete-nodes on a live cluster).
	DeleteNodes bool
	// Groups are the node groups whose own maxSurge and maxUnavailable a
	// roll falls back on, as the node-roll controller is given them (the
	// embedded cluster's; none on a live cluster: kops' defaults).
	Groups []nodegroup.Group
	// Rehearsal creates the empty API a forecast rehearses on, on the
	// forecast's own clock (kube/memapi in rollscope: the engine does not
	// know it). nil refuses forecasts.
	Rehearsal forecast.NewBackend
	// Explain rewords an error of a request that got no answer in the
	// operator's words (kube/connect.Explain in rollscope: the engine does
	// not know it) before Send, Forecast, Containers and UndoPreview return
	// it. nil keeps client-go's words.
	Explain func(error) error
}

// Cluster sends requests to one cluster and answers the console's
// questions about them. It keeps no state between calls, so the console
// may call it from several commands at once.
type Cluster struct {
	cfg Config
}

// New is a Cluster sending with cfg.
func New(cfg Config) *Cluster {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Explain == nil {
		cfg.Explain = func(err error) error { return err }
	}
	return &Cluster{cfg: cfg}
}

// Send checks r and sends it once, saying in a few words what happened:
// "ok", "revision 7 aborted, back on revision 6", "requested — the Nodes
// pane shows its progress". An error wrapping action.ErrNothingToDo means
// nothing was sent because nothing needed to be.
func (c *Cluster) Send(ctx context.Context, r action.Request) (string, error) {
	op := c.dispatch(r)
	if err := op.refuse(); err != nil {
		return "", c.cfg.Explain(err)
	}
	send := op.send
	if op.checked != nil {
		send = op.checked
	}
	out, err := send(ctx)
	return out, c.cfg.Explain(err)
}

// Check refuses bad input before anything is sent: a malformed image, an
// env name the API server rejects, replicas out of range, a revision below
// 1, roll settings such as "150%".
func (c *Cluster) Check(r action.Request) error {
	return c.dispatch(r).refuse()
}

// Send sends a scenario's scripted request on client, as the console
// would with --record: set image records its change-cause. It skips the
// dialog's checks — the engine refuses bad input itself, in the words a
// trace keeps, and a script's undo to revision 0 goes back to the previous
// revision as kubectl's does. now is the cluster's clock (nil: the wall
// clock).
func Send(ctx context.Context, client kubernetes.Interface, now func() time.Time, r action.Request) (string, error) {
	return New(Config{Client: client, Now: now, Record: true}).dispatch(r).send(ctx)
}
