package ui

import (
	"time"

	"rollscope/model/action"
	"rollscope/themes"
	"rollscope/ui/screen"
)

// Options configure a console.
type Options struct {
	// Cluster is where the views come from; a *cluster.Cluster in the
	// product.
	Cluster Source
	// Namespace and Deployment select the rollout shown first. With no
	// Deployment, the first one in Namespace is shown once it appears.
	Namespace, Deployment string
	// RC, when set, opens the rolling update view of this
	// ReplicationController in Namespace first (`rollscope rc/NAME`).
	RC string
	// Workload, when set, opens the view of this StatefulSet or DaemonSet
	// (WorkloadKind: action.OnStatefulSet or action.OnDaemonSet) in
	// Namespace first (`rollscope sts/NAME`, `rollscope ds/NAME`).
	Workload     string
	WorkloadKind action.Object
	// Context is the kubeconfig context shown in the header; "embedded"
	// for the embedded cluster.
	Context string
	// AllNamespaces watches and shows every namespace (-A): the fleet
	// lists them all, and Namespace is only where a rollout opened by name
	// is looked for.
	AllNamespaces bool
	// ShowFleet starts the console on the fleet even when its scope holds
	// one workload, which a console started afresh opens directly: it
	// starts again on a namespace scope the operator asked for (0, :ns;
	// Switch.Fleet), which the fleet shows as it does one its watch covers.
	ShowFleet bool
	// Contexts are the kubeconfig's contexts, which `:ctx` lists and
	// switches between; nil for the embedded cluster, which has one.
	Contexts []string
	// ScopeNote is one line about what is watched that the operator did
	// not choose, e.g. that -A fell back to one namespace because the
	// cluster refuses to list the others.
	ScopeNote string
	Theme     themes.Theme
	// Clock is the cluster's clock (virtual in the embedded cluster); ages
	// and the header clock read it. Defaults to time.Now.
	Clock func() time.Time
	// Embedded is the embedded cluster's clock control, nil for a live
	// cluster; the speed and pause keys work only with it.
	Embedded EmbeddedControls
	// Replay, for a recording, is its clock: the header says REPLAY, the
	// clock keys and [ ] :at move it, and every action key is off.
	Replay ReplayControls
	// ForkedAt, for an embedded rehearsal forked from a replay (F5), is
	// the recorded moment it started from: the header says so.
	ForkedAt time.Time
	// Keys overrides the default key map (see LoadKeyMap).
	Keys *KeyMap
	// Actions sends what the action keys ask for; with none every action
	// key stays disabled.
	Actions Actions
	// Logs reads containers' logs for the logs view (l); with none l is
	// off.
	Logs screen.LogSource
	// PodEvents brings a pod's Normal events while its detail is open
	// (kube/watch.PodEvents, the same handle as its watch's); nil when the
	// watch has them all.
	PodEvents screen.PodEventSource
	// Pods chooses whose pods the watch brings (kube/watch.PodNamespaces,
	// the same handle as its watch's): only those the fleet needs while it
	// is shown alone, a workload's namespace's besides while its page is,
	// every pod for anything else (askPods). nil when the watch brings
	// every pod in scope.
	Pods screen.PodScope
	// RollDefaults are the roll dialog's starting values (--step) and what
	// it says about the nodes a roll replaces.
	RollDefaults action.RollDefaults
	// Denied disables the actions the cluster will not allow, by action
	// name, with the reason (see kube/access).
	Denied map[action.Name]string
	// AssumeYes sends an action without asking for y (--yes).
	AssumeYes bool
	// ReadOnly disables every key that would change the cluster and says
	// so in the header (--read-only).
	ReadOnly bool
	// Record says set image records kubernetes.io/change-cause, for the
	// confirmation to mention it (--record).
	Record bool
	// Also are the other clusters the console shows beside this one (a
	// kubeconfig context each: --context a,b, --all-contexts), each with
	// its own Context, Cluster, Actions, Logs, Denied, Namespace,
	// AllNamespaces and ScopeNote; the rest of their options are this
	// one's. The fleet lists every cluster's rows; a row opens and acts on
	// its own cluster.
	Also []Options
	// Problem says why this cluster could not be connected to (or that
	// it is still connecting); it then has no Cluster, and the fleet
	// shows the line, with how long ago it was Tried (zero: not yet).
	// Unreachable are the other contexts not connected to, each with its
	// Context, Problem and Tried. A cluster connected to later, or tried
	// again, is a Reached message.
	Problem     string
	Tried       time.Time
	Unreachable []Options
	// Pace is the least time between two redraws while the watch churns
	// (pace.go); 0 redraws after every batch that changed something.
	// FleetPace is Pace while the fleet is shown alone; 0 is Pace.
	Pace, FleetPace time.Duration
}

// Actions is everything the console's keys send or ask before sending;
// engine/perform implements it (see screen.Actions).
type Actions = screen.Actions

// Source is the console's picture of the cluster; cluster.Cluster
// satisfies it (see screen.Source).
type Source = screen.Source

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

// ReplayControls are a recording's clock as the console's VCR steers it
// (kube/recording.Player): the embedded clock's keys, and the replay's own.
type ReplayControls interface {
	EmbeddedControls
	// Step goes to the next recorded change, or the one before.
	Step(forward bool)
	// Seek goes to a moment; SeekClock to a clock time, "15:04:05".
	Seek(time.Time)
	SeekClock(clock string) error
}

// Clock speeds the +/- keys step between.
const (
	minSpeed = 0.125
	maxSpeed = 64
)
