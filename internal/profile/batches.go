package profile

import (
	"bufio"
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model/cluster"
)

// BatchesEnv names a file into which the console writes every ReplicaSet
// the watch's batches bring, as the model receives it: how
// test/e2e/cmd/sidebyside tells, when a screen is behind the API at a
// settled moment, a batch that came late from one the console was slow to
// show. An environment variable, as KeysEnv.
//
// Each line is "RECEIVED WAITED HASH DESIRED CURRENT READY AVAILABLE": when
// the model received the batch (Unix milliseconds), how long it waited
// between the watch reading it from the caches and the model (ms, on the
// wall clock; a live cluster's batches are stamped with it), the
// ReplicaSet's pod-template-hash and its row's counts.
const BatchesEnv = "ROLLSCOPE_BATCHTIMES"

// Batches wraps the console's model m to log its ReplicaSets' batches when
// BatchesEnv asks for it; unwrap gives back the model inside a model it
// returned, and stop writes the file.
func Batches(m tea.Model) (logged tea.Model, unwrap func(tea.Model) tea.Model, stop func(), err error) {
	path := os.Getenv(BatchesEnv)
	if path == "" {
		return m, func(m tea.Model) tea.Model { return m }, func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s=%s: %w", BatchesEnv, path, err)
	}
	w := bufio.NewWriter(f)
	unwrap = func(m tea.Model) tea.Model {
		if b, ok := m.(batchLogged); ok {
			return b.Model
		}
		return m
	}
	stop = func() { _ = w.Flush(); f.Close() }
	return batchLogged{Model: m, w: w}, unwrap, stop, nil
}

type batchLogged struct {
	tea.Model
	w *bufio.Writer
}

func (b batchLogged) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if batch, ok := msg.(cluster.Batch); ok {
		now := time.Now()
		logged := false
		for _, obj := range batch.Objects {
			if rs, ok := obj.(*appsv1.ReplicaSet); ok {
				desired := int32(0)
				if rs.Spec.Replicas != nil {
					desired = *rs.Spec.Replicas
				}
				fmt.Fprintln(b.w, now.UnixMilli(), now.Sub(batch.At).Milliseconds(), rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey],
					desired, rs.Status.Replicas, rs.Status.ReadyReplicas, rs.Status.AvailableReplicas)
				logged = true
			}
		}
		if logged {
			// Read while the console runs: flushed at once, and few.
			_ = b.w.Flush()
		}
	}
	m, cmd := b.Model.Update(msg)
	return batchLogged{Model: m, w: b.w}, cmd
}
