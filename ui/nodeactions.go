package ui

import (
	"context"
	"strings"
	"time"
)

// NodeActions is what the node keys call: cordon, drain and node-group
// rolls. cmd implements it over engine/drain and engine/noderoll, which keep
// every request in rollscope.dev annotations on the nodes; the controllers
// do the work and the nodes pane shows their progress from the same
// annotations. Every method but CheckRoll and RollDefaults may block on the
// API server: the console calls them from commands.
type NodeActions interface {
	Cordon(ctx context.Context, node string) error
	Uncordon(ctx context.Context, node string) error
	// PreviewDrain says what draining node with o would do; it changes
	// nothing.
	PreviewDrain(ctx context.Context, node string, o DrainOptions) (DrainPreview, error)
	// Drain asks the drain controller to drain node.
	Drain(ctx context.Context, node string, o DrainOptions) error
	// CheckRoll refuses bad settings before anything is sent ("150%") and
	// otherwise says in a few words what the roll will do.
	CheckRoll(r RollRequest) (string, error)
	// Roll asks the node-roll controller to roll r.Group.
	Roll(ctx context.Context, r RollRequest) error
	// SteerRoll moves the group's roll on: next node, pause, resume, stop.
	SteerRoll(ctx context.Context, group string, s RollSteer) error
	// RollDefaults are the console's settings for new rolls.
	RollDefaults() RollDefaults
}

// RollDefaults are the roll dialog's starting values and what it says about
// terminating nodes.
type RollDefaults struct {
	// Step starts the dialog's step toggle on (--step).
	Step bool
	// DeleteNodes is set when drained nodes are deleted (--delete-nodes
	// on a live cluster; the embedded cluster always replaces them).
	DeleteNodes bool
	// Live is set on a live cluster, where rollscope cannot create
	// machines.
	Live bool
}

// DrainOptions are the drain dialog's choices: kubectl drain's flags.
type DrainOptions struct {
	IgnoreDaemonSets   bool
	DeleteEmptyDirData bool
	// Force drains pods that declare no controller.
	Force bool
	// DisableEviction deletes instead of evicting, bypassing
	// PodDisruptionBudgets.
	DisableEviction bool
	// GracePeriodSeconds overrides the pods' own grace period when set.
	GracePeriodSeconds *int64
	// Timeout gives up the drain after this long; zero waits for ever.
	Timeout time.Duration
}

// Kubectl is the kubectl drain command that does the same.
func (o DrainOptions) Kubectl(node string) string {
	parts := []string{"kubectl drain " + node}
	for _, f := range []struct {
		on   bool
		flag string
	}{
		{o.IgnoreDaemonSets, "--ignore-daemonsets"}, {o.DeleteEmptyDirData, "--delete-emptydir-data"},
		{o.Force, "--force"}, {o.DisableEviction, "--disable-eviction"},
	} {
		if f.on {
			parts = append(parts, f.flag)
		}
	}
	if o.GracePeriodSeconds != nil {
		parts = append(parts, "--grace-period="+itoa(*o.GracePeriodSeconds))
	}
	if o.Timeout > 0 {
		parts = append(parts, "--timeout="+o.Timeout.String())
	}
	return strings.Join(parts, " ")
}

// DrainPreview is what a drain of one node would do.
type DrainPreview struct {
	// Evict are the pods the drain removes ("ns/name").
	Evict []string
	// Budgets are the PodDisruptionBudgets of those pods with the
	// disruptions each allows now.
	Budgets []string
	// Blocked are the pods a budget will hold back at first: the drain
	// waits for them, retrying every 5 s.
	Blocked []string
	// Warnings are pods skipped or deleted with a warning (DaemonSet
	// pods, emptyDir data, unreplicated pods with --force); Refusals are
	// pods that make the drain refuse to start.
	Warnings, Refusals []PodGroup
}

// PodGroup is one of kubectl drain's messages and the pods it is about.
type PodGroup struct {
	Message string
	Pods    []string
}

// RollRequest is a node-group roll as the dialog built it.
type RollRequest struct {
	Group string
	// MaxSurge and MaxUnavailable are a node count or a percentage as
	// typed; "" leaves the group's own setting.
	MaxSurge, MaxUnavailable string
	// Interval is the wait after each node before validating; zero is
	// kops' 15 s.
	Interval time.Duration
	// Step waits for n after every node.
	Step bool
	// Size and Outdated are the group's node counts as the console sees
	// them, for the check's arithmetic.
	Size, Outdated int
}

// RollSteer is what n, space and x do to a roll.
type RollSteer int

const (
	RollContinue RollSteer = iota + 1
	RollPause
	RollResume
	RollStop
)

func (s RollSteer) String() string {
	switch s {
	case RollContinue:
		return "continue"
	case RollPause:
		return "pause"
	case RollResume:
		return "resume"
	case RollStop:
		return "stop"
	}
	return "steer"
}

// nodeKeyNames are the key map's names of the node actions that write.
var nodeKeyNames = []string{"cordon", "uncordon", "drain", "roll-group", "next-step", "pause-roll", "stop-roll"}

// enableNodeActions turns the node keys on when there is something to
// call, except those --read-only or the cluster's permissions forbid.
func enableNodeActions(km *KeyMap, opts Options) {
	_, ok := opts.Actions.(NodeActions)
	for _, name := range nodeKeyNames {
		switch {
		case opts.ReadOnly:
			km.Disable(name, readOnlyReason)
		case !ok:
			// Keep the default reason.
		case opts.Denied[name] != "":
			km.Disable(name, opts.Denied[name])
		default:
			km.Enable(name)
		}
	}
}
