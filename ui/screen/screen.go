// Package screen is what every page, pane and overlay of the console
// shares: the picture read from the cluster in the last Update (the plain
// views of package model), the styles and the keys, the footer's toast,
// the contracts of pages (page.go) and of panes and overlays
// (component.go), and the one request runner every action goes through
// (runner.go).
//
// The root owns the Screen and reads it again after every batch; panes and
// overlays read it, and change only what is theirs to change: the toast,
// the ReplicaSet the ReplicaSets pane selects, where the picker goes next.
package screen

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
)

// Source is the console's picture of the cluster. cluster.Cluster satisfies
// it; tests use hand-made views. Every method is an in-memory read except
// Apply, which folds a watch batch in and reports whether anything changed,
// and AddAction, which puts what the console sent on a deployment's
// timeline.
type Source interface {
	Apply(cluster.Batch) bool
	Watch() cluster.WatchStatus
	Deployments() []cluster.DeploymentSummary
	// FirstDeployment is the first Deployment by namespace and name in
	// namespace ("": any), which the console shows when none was named.
	FirstDeployment(namespace string) (ns, name string, ok bool)
	Rollout(namespace, name string, now time.Time) (cluster.RolloutView, bool)
	// Nodes is the node list. Its rows last through one more read: the
	// next read but one writes into them (model/cluster/view.go).
	Nodes() []cluster.NodeRow
	// Timeline is the deployment's story. The same slice comes back until
	// the timeline changes, and no one changes a slice once handed out:
	// the Timeline pane tells its story again only from a new one.
	Timeline(namespace, name string) []cluster.TimelineEntry
	RevisionDiff(namespace, name string, revision int64) ([]cluster.DiffLine, error)
	RCUpdate(namespace, name string) (cluster.RCUpdateView, bool)
	AddAction(namespace, name string, e cluster.TimelineEntry)
	// Absent says why a deployment is not in the picture: deleted, or in
	// a namespace that does not exist.
	Absent(namespace, name string) cluster.Absence
}

// Screen is the shared context.
type Screen struct {
	Styles themes.Styles
	Paints draw.Paints
	Keys   *keys.Map
	Src    Source
	// Actions sends what the action keys ask for; nil with no cluster to
	// act on.
	Actions Actions
	// Logs reads containers' logs for the logs view; nil with none.
	Logs LogSource
	// PodEvents brings a pod's Normal events while its detail is open;
	// nil when every event is watched.
	PodEvents PodEventSource
	// Members are the clusters shown (member.go); Context is the one in
	// focus, whose Src, Actions, Logs and Keys the fields above are.
	Members []Member
	Context string
	// Clock is the cluster's clock; Now is its reading at the last Read.
	Clock func() time.Time
	Now   time.Time

	// Namespace and Deployment are the rollout shown.
	Namespace, Deployment string
	Rollout               cluster.RolloutView
	HaveRollout           bool
	Nodes                 []cluster.NodeRow
	Timeline              []cluster.TimelineEntry
	Watch                 cluster.WatchStatus
	// Speed and ClockPaused are the embedded clock's, read in Update so
	// View does not call out to the clock.
	Speed       float64
	ClockPaused bool
	// ClockHeld is set while the console itself stops the embedded clock
	// because a dialog that writes is open (ui/hold.go).
	ClockHeld bool

	// SelectedRS is the ReplicaSet under the ReplicaSets pane's cursor:
	// the one whose pods the Pods pane lists.
	SelectedRS string
	// SelectedRevision is the revision under the History pane's cursor
	// while that pane has the focus, 0 otherwise: undo starts there.
	SelectedRevision int64
	// Glyph is the pod under the ReplicaSets pane's glyph cursor, "" when
	// its cursor is on a ReplicaSet's row.
	Glyph string

	// The console's options, as the overlays read them: --yes sends
	// without asking for y, --read-only says so in the header, --record
	// is mentioned by set image's confirmation, and new node-group rolls
	// start from RollDefaults.
	AssumeYes, ReadOnly, Record bool
	RollDefaults                action.RollDefaults

	// Toast is a one-line message in the footer until the next key.
	Toast string

	// busy names the request on its way (runner.go).
	busy string
	// pausedWant is the paused state an action just set (runner.go).
	pausedWant *pausedWant
	// next is where an overlay or a page asked the console to go.
	next *Target

	// IsGlobal tells the console's own keys from a page's (Global); the
	// root sets it.
	IsGlobal func(tea.KeyPressMsg) bool
	// global is a key a page left for the root, show an overlay a page
	// asked to open (page.go).
	global *tea.KeyPressMsg
	show   *Open
}

// Read fetches the views of the rollout shown, and the nodes, from the
// source. The root calls it in Update only, so View never touches the
// source. With no deployment chosen yet, the first one in the namespace is
// shown once it appears.
func (s *Screen) Read() {
	s.Now = s.Clock()
	s.Watch = s.Src.Watch()
	if s.Deployment == "" {
		if ns, name, ok := s.Src.FirstDeployment(s.Namespace); ok {
			s.Namespace, s.Deployment = ns, name
		}
	}
	s.Rollout, s.HaveRollout = cluster.RolloutView{}, false
	if s.Deployment != "" {
		s.Rollout, s.HaveRollout = s.Src.Rollout(s.Namespace, s.Deployment, s.Now)
		s.Timeline = s.Src.Timeline(s.Namespace, s.Deployment)
	}
	s.applyPausedWant()
	s.Nodes = s.Src.Nodes()
}

// ReplicaSet returns the selected ReplicaSet, or the newest one.
func (s *Screen) ReplicaSet() (cluster.ReplicaSetRow, bool) {
	rss := s.Rollout.ReplicaSets
	for _, rs := range rss {
		if rs.Name == s.SelectedRS {
			return rs, true
		}
	}
	if len(rss) > 0 {
		return rss[0], true
	}
	return cluster.ReplicaSetRow{}, false
}

// Target is where the console goes: a deployment, or the rolling update
// view of a ReplicationController.
type Target struct {
	// Cluster is the kubeconfig context the target is in (a fleet row's);
	// "" for the cluster in focus.
	Cluster               string
	Namespace, Deployment string
	RC                    string
	// Workload is a StatefulSet or DaemonSet to show, of kind
	// WorkloadKind (action.OnStatefulSet or action.OnDaemonSet).
	Workload     string
	WorkloadKind action.Object
	// Scope, when set, is a scope asked for on the command line (`:ns`,
	// `:ctx`) rather than an object.
	Scope *Scope
	// Action, when set with Deployment, opens that action's dialog on the
	// Deployment over the page shown, rather than showing its rollout (an
	// action key on a Deployment's row in the fleet).
	Action action.Name
}

// Scope is what `:ns NAME`, `:ns all`, `:ctx` and `:ctx NAME` ask for.
type Scope struct {
	// Namespace is the namespace to show; All every namespace.
	Namespace string
	All       bool
	// Context is the kubeconfig context to switch to — or several,
	// "a,b", or "all" of them; ListContexts asks which there are.
	Context      string
	ListContexts bool
	// At is a clock time a replay jumps to (`:at 03:12:00`).
	At string
}

// Go asks the root to show t once the overlay's Update is done (the
// picker's choice).
func (s *Screen) Go(t Target) { s.next = &t }

// Next takes where an overlay asked to go, if it did.
func (s *Screen) Next() (Target, bool) {
	t := s.next
	s.next = nil
	if t == nil {
		return Target{}, false
	}
	return *t, true
}
