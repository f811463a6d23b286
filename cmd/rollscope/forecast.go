package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/forecast"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model/action"
)

// forecastRequest says what the rollout r would start will do: it reads the
// deployment, its ReplicaSets and pods from client as they are at now, and
// rehearses r on a copy in a fresh embedded API, pods becoming ready as fast
// as the deployment's have so far. Nothing is sent to client.
func forecastRequest(ctx context.Context, client kubernetes.Interface, now time.Time, r action.Request) (string, error) {
	change, err := forecastChange(r)
	if err != nil {
		return "", err
	}
	st, err := forecast.ReadState(ctx, client, r.Namespace, r.Name, now)
	if err != nil {
		return "", err
	}
	f, err := forecast.Simulate(ctx, forecastAPI, st, forecast.ObservedReadiness(st.Deployment, st.Pods), change)
	if err != nil {
		return "", err
	}
	return f.String(), nil
}

// forecastAPI is the copy a forecast runs on: an empty embedded API on the
// forecast's own clock.
func forecastAPI(clock *sim.Clock) forecast.Backend {
	return memapi.New(memapi.Options{Clock: clock, Seed: 1})
}

// forecastChange is r as the engine call its key sends; the copy gets
// exactly what the cluster would.
func forecastChange(r action.Request) (forecast.Change, error) {
	switch r.Action {
	case action.SetImage:
		return func(ctx context.Context, c kubernetes.Interface, t actions.Target) error {
			return actions.SetImage(ctx, c, t, r.Container, r.Image, "")
		}, nil
	case action.Undo:
		return func(ctx context.Context, c kubernetes.Interface, t actions.Target) error {
			if r.ResumeFirst {
				if err := actions.Resume(ctx, c, t); err != nil && !errors.Is(err, actions.ErrNothingToDo) {
					return err
				}
			}
			return actions.Undo(ctx, c, t, r.Revision)
		}, nil
	case action.Abort:
		return func(ctx context.Context, c kubernetes.Interface, t actions.Target) error {
			_, err := actions.Abort(ctx, c, t)
			return err
		}, nil
	}
	return nil, fmt.Errorf("%s starts no rollout: there is nothing to forecast", r.Summary())
}
