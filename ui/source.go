package ui

import (
	"time"

	"rollscope/model"
)

// Source is the console's picture of the cluster. model.RCCluster satisfies
// it; tests use hand-made views. Every method is an in-memory read except
// Apply, which folds a watch batch in and reports whether anything changed,
// and AddAction, which puts what the console sent on a deployment's
// timeline.
type Source interface {
	Apply(model.Batch) bool
	Watch() model.WatchStatus
	Deployments() []model.DeploymentSummary
	Rollout(namespace, name string, now time.Time) (model.RolloutView, bool)
	Nodes() []model.NodeRow
	Timeline(namespace, name string) []model.TimelineEntry
	RevisionDiff(namespace, name string, revision int64) ([]model.DiffLine, error)
	RCUpdate(namespace, name string) (model.RCUpdateView, bool)
	AddAction(namespace, name string, e model.TimelineEntry)
}

// EmbeddedControls is the embedded cluster's virtual clock as the console
// steers it. It is nil when watching a live cluster, whose clock is not ours
// to change.
type EmbeddedControls interface {
	// Speed is how many virtual seconds pass per real second.
	Speed() float64
	SetSpeed(float64)
	// Paused reports whether the virtual clock is stopped; SetPaused
	// stops or restarts it without losing the speed.
	Paused() bool
	SetPaused(bool)
}

// Clock speeds the +/- keys step between.
const (
	minSpeed = 0.125
	maxSpeed = 64
)
