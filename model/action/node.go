package action

import (
	"strconv"
	"strings"
	"time"
)

// DrainOptions are kubectl drain's flags.
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

// Kubectl is the kubectl drain command that does the same for node.
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
		parts = append(parts, "--grace-period="+strconv.FormatInt(*o.GracePeriodSeconds, 10))
	}
	if o.Timeout > 0 {
		parts = append(parts, "--timeout="+o.Timeout.String())
	}
	return strings.Join(parts, " ")
}

// DrainPreview is what a drain of one node would do.
type DrainPreview struct {
	// Cordoned and State are the node's cordon and drain state (a
	// model.Drain* word, "" for none) as the preview read them.
	Cordoned bool
	State    string
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

// RollSettings are a node-group roll's settings as the dialog took them.
type RollSettings struct {
	// MaxSurge and MaxUnavailable are a node count or a percentage as
	// typed; "" leaves the group's own setting.
	MaxSurge, MaxUnavailable string
	// Interval is the wait after each node before validating; zero is
	// kops' 15 s.
	Interval time.Duration
	// Step waits for n after every node.
	Step bool
	// DrainTimeout and ValidationTimeout are kops' --drain-timeout and
	// --validation-timeout; zero is kops' 15 minutes. Scenario files set
	// them; the dialog leaves them at kops' defaults.
	DrainTimeout, ValidationTimeout time.Duration
	// Size and Outdated are the group's node counts as the console sees
	// them, for the plan's arithmetic.
	Size, Outdated int
}

// RollDefaults are the console's settings for new rolls.
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
