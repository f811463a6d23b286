package screen

import (
	"context"
	"io"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/cluster"
)

// LogSource reads a container's log: the embedded cluster's kubelet
// simulator (engine/kubelet.Logs) or a live cluster's pods/log subresource
// through client-go (kube/podlogs). The logs view opens a stream when it
// opens and closes it (through ctx) when it closes.
type LogSource interface {
	Open(ctx context.Context, r model.LogRequest) (io.ReadCloser, error)
}

// PodEventSource watches one pod's routine (Normal) events while its
// detail is open (kube/watch.PodEvents): the console watches only pods'
// Warnings otherwise. The events come in the picture's batches; nil when
// every event is watched anyway.
type PodEventSource interface {
	Follow(ctx context.Context, namespace, name string)
}

// PodScope asks a cluster-wide watch for namespaces' pods
// (kube/watch.PodNamespaces): the fleet of every namespace, shown alone,
// needs only some. What it watches only widens.
type PodScope interface {
	Want(all bool, namespaces ...string)
}

// PodsNeeder is a Source that says whose pods its fleet rows need, and is
// told when the console has asked for a namespace's pods or every pod
// (""), until which its picture is incomplete; cluster.Cluster does.
type PodsNeeder interface {
	PodsNeeded() (all bool, namespaces []string)
	AwaitPods(namespace string)
}

// PodReader is a page that reads the pods of one namespace, its
// workload's: a console that watches pods only where it must asks for that
// namespace's while the page is shown, and for every pod while all is set
// (the rollout page's Nodes pane, focused, counts every pod on each node).
type PodReader interface {
	PodsRead() (namespace string, all bool)
}

// PodSource is the pod detail a Source may also answer; cluster.Cluster does.
// It is asked in Update only, like every Source method.
type PodSource interface {
	Pod(namespace, name string) (cluster.PodDetail, bool)
}

// Open asks the root to show an overlay a pane built (the pod detail and
// logs views), and to run its first command.
type Open struct {
	Overlay Overlay
	Cmd     tea.Cmd
}

// OpenCmd is the command a pane returns to open ov.
func OpenCmd(ov Overlay, cmd tea.Cmd) tea.Cmd {
	return func() tea.Msg { return Open{Overlay: ov, Cmd: cmd} }
}

// Refresher is an overlay that shows what the cluster says now: the root
// tells it when the Screen was read again.
type Refresher interface{ Refresh() }
