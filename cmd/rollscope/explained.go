package main

import (
	"context"

	"rollscope/engine/perform"
	"rollscope/kube/connect"
	"rollscope/model/action"
	"rollscope/model/cluster"
)

// explained is the console's actions with every request that got no answer
// told in the operator's words (connect.Explain) instead of client-go's.
type explained struct{ *perform.Cluster }

func (e explained) Send(ctx context.Context, r action.Request) (string, error) {
	out, err := e.Cluster.Send(ctx, r)
	return out, connect.Explain(err)
}

func (e explained) Forecast(ctx context.Context, r action.Request) (string, error) {
	out, err := e.Cluster.Forecast(ctx, r)
	return out, connect.Explain(err)
}

func (e explained) Containers(ctx context.Context, namespace, deployment string) ([]action.Container, error) {
	out, err := e.Cluster.Containers(ctx, namespace, deployment)
	return out, connect.Explain(err)
}

func (e explained) UndoPreview(ctx context.Context, namespace, deployment string, revision int64) ([]cluster.DiffLine, error) {
	out, err := e.Cluster.UndoPreview(ctx, namespace, deployment, revision)
	return out, connect.Explain(err)
}
