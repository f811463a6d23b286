package perform

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/canary"
	"rollscope/engine/forecast"
	"rollscope/model"
	"rollscope/model/action"
)

// Forecast says what the rollout r would start will do: it reads the
// deployment, its ReplicaSets and pods (a StatefulSet or DaemonSet, its
// ControllerRevisions, pods and nodes) as they are now, and rehearses r on
// a copy in a fresh API from Config.Rehearsal, pods becoming ready as fast
// as the deployment's have so far. The copy gets exactly what the cluster
// would: the same dispatch as Send. Nothing is sent to the cluster. A
// Rollout's action is rehearsed the same way by the embedded Argo
// controller; a Rollout of a shape it does not run is answered so, in one
// line, instead of a forecast. A rehearsal cut off by ctx's deadline says
// how long it ran: "context deadline exceeded", or a rate limiter's words
// for it, told the operator nothing of what happened.
func (c *Cluster) Forecast(ctx context.Context, r action.Request) (string, error) {
	began := time.Now()
	out, err := c.forecast(ctx, r)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "", fmt.Errorf("the rehearsal was stopped after %s, before it ended — y still sends it", time.Since(began).Round(time.Second))
	}
	return out, c.cfg.Explain(err)
}

func (c *Cluster) forecast(ctx context.Context, r action.Request) (string, error) {
	if err := c.checkRehearsal(ctx, r); err != nil {
		return "", err
	}
	if t, ok := workloadTarget(r); ok && r.Spec().Forecast && c.cfg.Rehearsal != nil {
		st, err := forecast.ReadWorkload(ctx, c.cfg.Client, t, c.cfg.Now())
		if err != nil {
			return "", err
		}
		f, err := forecast.SimulateWorkload(ctx, c.cfg.Rehearsal, st, forecast.PodReadiness(st.MinReadySeconds(), st.Pods), c.rehearse(r))
		if err != nil {
			return "", err
		}
		return f.String() + c.evictions(ctx), nil
	}
	f, err := c.Rehearse(ctx, r)
	var unrun unmodelled
	if errors.As(err, &unrun) {
		return unrun.Error(), nil
	}
	if err != nil {
		return "", err
	}
	s := f.String()
	if r.Action == action.SetImage && f.Steps > 0 {
		// The rehearsal cannot pull the image: it takes it on trust.
		s += "; assumes " + r.Image + " starts and becomes ready — a crash or a failed pull stops the rollout at its first wave"
	}
	return s + c.evictions(ctx), nil
}

// evictions is the forecast's assumption about drains and node rolls when
// one is under way: the rehearsal copies the workload, not the nodes, so
// pods a drain evicts mid-rollout are in none of its figures. "" when no
// node is being drained or rolled, or the nodes cannot be read (a user
// who may not list them sees the forecast as before).
func (c *Cluster) evictions(ctx context.Context) string {
	nodes, err := c.cfg.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return ""
	}
	var names []string
	for i := range nodes.Items {
		if model.NodeEvicting(&nodes.Items[i]) {
			names = append(names, nodes.Items[i].Name)
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "; assumes no drain or node roll evicts its pods — one is under way on node " + names[0]
	}
	return fmt.Sprintf("; assumes no drain or node roll evicts its pods — one is under way on %s (%s)", model.Plural(len(names), "node"), strings.Join(names, ", "))
}

// Rehearse is Forecast's figures for a Deployment or a Rollout, for a
// caller that compares them with what the cluster then does.
func (c *Cluster) Rehearse(ctx context.Context, r action.Request) (forecast.Forecast, error) {
	if r.Spec().Argo {
		return c.rehearseRollout(ctx, r)
	}
	if !r.Spec().Forecast {
		return forecast.Forecast{}, fmt.Errorf("%s starts no rollout: there is nothing to forecast", r.Summary())
	}
	if c.cfg.Rehearsal == nil {
		return forecast.Forecast{}, errors.New("cannot forecast: this console has no rehearsal cluster — send the action without a forecast")
	}
	if _, ok := workloadTarget(r); ok {
		return forecast.Forecast{}, fmt.Errorf("%s: a StatefulSet or DaemonSet forecast is read as a sentence (Forecast)", r.Summary())
	}
	st, err := forecast.ReadState(ctx, c.cfg.Client, r.Namespace, r.Name, c.cfg.Now())
	if err != nil {
		return forecast.Forecast{}, err
	}
	return forecast.Simulate(ctx, c.cfg.Rehearsal, st, forecast.ObservedReadiness(st.Deployment, st.Pods), c.rehearse(r))
}

// rehearse is r sent to the copy: what the cluster would get, without a
// change-cause (nobody reads the copy's). The rehearsal runs no canary
// controller, so what it does to a guided canary whose template r changed
// is done here, the one way engine/canary does it: the hold's settings go
// back to the Deployment's own, or the copy would hold for ever.
func (c *Cluster) rehearse(r action.Request) forecast.Change {
	return func(ctx context.Context, rehearsal kubernetes.Interface, t actions.Target) error {
		r.Namespace, r.Name = t.Namespace, t.Name
		if _, err := New(Config{Client: rehearsal, Now: c.cfg.Now}).dispatch(r).send(ctx); err != nil {
			return err
		}
		return endStaleCanary(ctx, rehearsal, t)
	}
}

// endStaleCanary ends the canary of deployment t in the copy if the change
// left it stale. Anything but a Deployment has no canary.
func endStaleCanary(ctx context.Context, cl kubernetes.Interface, t actions.Target) error {
	d, err := cl.AppsV1().Deployments(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	u, ok := canary.EndStale(d)
	if !ok {
		return nil
	}
	_, err = cl.AppsV1().Deployments(t.Namespace).Update(ctx, u, metav1.UpdateOptions{})
	return err
}

// unmodelled is a Rollout whose shape the embedded Argo controller does
// not run: its one line stands where the forecast would.
type unmodelled struct{ error }

// rehearseRollout is Rehearse of any action on an Argo Rollout: the
// Rollout, its ReplicaSets and pods copied from the cluster (embedded or
// live) and the action played there by the embedded Argo controller.
func (c *Cluster) rehearseRollout(ctx context.Context, r action.Request) (forecast.Forecast, error) {
	if c.cfg.Rehearsal == nil {
		return forecast.Forecast{}, errors.New("cannot forecast: this console has no rehearsal cluster — send the action without a forecast")
	}
	if err := c.argoOp(r.Spec().Verb, r).refuse(); err != nil {
		return forecast.Forecast{}, err
	}
	st, err := forecast.ReadRollout(ctx, c.cfg.Client, r.Namespace, r.Name, c.cfg.Now())
	if err != nil {
		return forecast.Forecast{}, err
	}
	if s := forecast.Unmodelled(st.Rollout); s != "" {
		return forecast.Forecast{}, unmodelled{errors.New(s)}
	}
	return forecast.SimulateRollout(ctx, c.cfg.Rehearsal, st, forecast.PodReadiness(st.Rollout.Spec.MinReadySeconds, st.Pods), c.rehearse(r))
}
