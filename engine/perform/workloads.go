package perform

import (
	"context"
	"fmt"
	"time"

	"rollscope/engine/workloads"
	"rollscope/model/action"
	"rollscope/model/kind"
)

// workloadTarget is the workload r is on, for a kind engine/workloads
// changes (StatefulSets, DaemonSets); false for requests on other kinds.
func workloadTarget(r action.Request) (workloads.Target, bool) {
	on := r.Spec().On
	if !workloads.Changes(on) {
		return workloads.Target{}, false
	}
	return workloads.Target{Kind: on, Namespace: r.Namespace, Name: r.Name}, true
}

// dispatchWorkload is the dispatch of the requests of the verbs a kind's
// registry entry lists, one case per verb, through engine/workloads; false
// for requests on other kinds.
func (c *Cluster) dispatchWorkload(r action.Request) (op, bool) {
	cl, now := c.cfg.Client, c.cfg.Now
	t, ok := workloadTarget(r)
	if !ok {
		return op{}, false
	}
	switch r.Spec().Verb {
	case kind.SetImage:
		return op{check: func() error { return checkImage(r) }, send: func(ctx context.Context) (string, error) {
			return said(sentOK, workloads.SetImage(ctx, cl, t, r.Container, r.Image))
		}}, true
	case kind.SetEnv:
		return op{check: func() error { return checkEnv(r) }, send: func(ctx context.Context) (string, error) {
			name, value, remove, err := r.EnvChange()
			if err != nil {
				return "", err
			}
			return said(sentOK, workloads.SetEnv(ctx, cl, t, r.Container, name, value, remove))
		}}, true
	case kind.Restart:
		return op{send: func(ctx context.Context) (string, error) {
			return said(sentOK, workloads.Restart(ctx, cl, t, now().UTC().Format(time.RFC3339)))
		}}, true
	case kind.Undo:
		return op{check: func() error { return checkRevision(r.Revision) }, send: func(ctx context.Context) (string, error) {
			done, err := workloads.Undo(ctx, cl, t, r.Revision)
			return said(done.String(), err)
		}}, true
	case kind.Scale:
		return op{check: func() error { return c.checkScale(r) }, send: func(ctx context.Context) (string, error) {
			return said(sentOK, workloads.Scale(ctx, cl, t, r.Replicas))
		}}, true
	case kind.Partition:
		return op{check: func() error {
			if r.Partition < 0 {
				return fmt.Errorf("the partition is an ordinal, 0 or more, not %d", r.Partition)
			}
			return nil
		}, send: func(ctx context.Context) (string, error) {
			return said(sentOK, workloads.SetPartition(ctx, cl, t, r.Partition))
		}}, true
	}
	return op{}, false
}
