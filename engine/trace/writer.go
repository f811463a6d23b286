package trace

import (
	"bufio"
	"fmt"
	"io"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/nodegroup"
	"rollscope/engine/scenario"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// Format is how a trace is printed.
type Format string

const (
	// JSONL prints one JSON object per line, for machines and diffs.
	JSONL Format = "jsonl"
	// Table prints a `kubectl get rs -w`-style table, for people.
	Table Format = "table"
)

// ParseFormat checks a --format flag value.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case JSONL, Table:
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown trace format %q (use %s or %s)", s, JSONL, Table)
}

// Writer turns the committed changes of a run into trace lines. It keeps the
// last projection of every object it follows, so that a line is written only
// when one of its fields changes. It is safe for use from several goroutines;
// lines appear in call order.
type Writer struct {
	mu     sync.Mutex
	out    *bufio.Writer
	table  bool
	start  time.Time
	specs  map[string]string // node group → its current Spec
	header bool
	home   string // the scenario's namespace (Home)
	line   []byte // the line being encoded, reused

	deployments followed[*appsv1.Deployment, deploymentLine]
	replicaSets followed[*appsv1.ReplicaSet, replicaSetLine]
	workloads   map[kind.Kind]*workloadLines // every other workload kind
	nodes       map[string]nodeLine
	events      map[objectKey]eventLine
	podNode     map[objectKey]string // active pod → the node it is bound to
	nodePods    map[string]int       // node → active pods bound to it
	instant     *nodeInstant         // set by NodeLinesPerInstant

	analysisRuns map[analysisRunKey]analysisRunLine // analysisrun.go

	// script are the scenario's actions not yet reported (actionset.go).
	script []scenario.Action
}

// New writes a trace of format f to w. start is the virtual time of the
// beginning of the run; groups give the spec that makes a node up to date.
// An unknown format writes JSONL.
func New(w io.Writer, f Format, start time.Time, groups []nodegroup.Group) *Writer {
	specs := make(map[string]string, len(groups))
	for _, g := range groups {
		specs[g.Name] = g.Spec
	}
	return &Writer{
		out:         bufio.NewWriterSize(w, 64<<10),
		table:       f == Table,
		start:       start,
		specs:       specs,
		deployments: follow(kindDeployment, projectDeployment, (*Writer).writeDeployment),
		replicaSets: follow(kindReplicaSet, projectReplicaSet, (*Writer).writeReplicaSet),
		workloads:   followWorkloads(),
		nodes:       map[string]nodeLine{},
		events:      map[objectKey]eventLine{},
		podNode:     map[objectKey]string{},
		nodePods:    map[string]int{},
	}
}

// Observe takes one committed change, in commit order. Objects the trace
// does not follow are ignored; pods only feed the node lines' pod counts.
// A deletion writes one line with type, namespace, name and "deleted":true
// (nodes have no namespace and their line none); an expired event writes
// nothing.
func (w *Writer) Observe(now time.Time, ev watch.Event) { w.ObserveChange(now, ev, nil) }

// ObserveChange is Observe told the version of the object the change
// replaced (nil when not known): most of a big rollout's changes are pods'
// status writes, which move no pod between nodes, and then cost no lookup
// of the pod's node.
func (w *Writer) ObserveChange(now time.Time, ev watch.Event, prev runtime.Object) {
	w.mu.Lock()
	defer w.mu.Unlock()
	deleted := ev.Type == watch.Deleted
	if !deleted && ev.Type != watch.Added && ev.Type != watch.Modified {
		return
	}
	t := now.Sub(w.start)
	w.instant.reach(w, t)
	// A typed nil in the event is not an object: it is skipped.
	switch o := ev.Object.(type) {
	case *corev1.Pod:
		if o != nil {
			was, _ := prev.(*corev1.Pod)
			w.observePod(t, o, was, deleted)
		}
	case *appsv1.Deployment:
		w.deployments.observe(w, t, o, deleted)
	case *appsv1.ReplicaSet:
		w.replicaSets.observe(w, t, o, deleted)
	case *corev1.Node:
		if o != nil {
			w.observeNode(t, o, deleted)
		}
	case *corev1.Event:
		if o != nil {
			w.observeEvent(t, o, deleted)
		}
	case *argo.AnalysisRun:
		if o != nil {
			w.observeAnalysisRun(t, o, deleted)
		}
	case *unstructured.Unstructured:
		// A Rollout is served as unstructured JSON; its line is the
		// registry's, read from its decoding. So is an AnalysisRun.
		switch {
		case o == nil:
		case o.GroupVersionKind() == argo.GroupVersion.WithKind("Rollout"):
			if ro, err := argo.RolloutOf(o); err == nil {
				wl, _ := kind.Of(ro)
				w.workloads[kind.Rollout].observe(w, t, wl, deleted)
			}
		case o.GroupVersionKind() == argo.GroupVersion.WithKind("AnalysisRun"):
			if ar, err := argo.AnalysisRunOf(o); err == nil {
				w.observeAnalysisRun(t, ar, deleted)
			}
		}
	default:
		if wl, ok := kind.Of(o); ok {
			w.workloads[wl.Kind()].observe(w, t, wl, deleted)
		}
	}
}

// observeNode writes the node's line when it changed, or its deletion.
func (w *Writer) observeNode(t time.Duration, n *corev1.Node, deleted bool) {
	if deleted {
		delete(w.nodes, n.Name)
		w.instant.forget(n.Name)
		w.writeDeleted(t, kindNode, objectKey{name: n.Name})
		return
	}
	w.nodes[n.Name] = w.updateNode(t, n.Name, projectNode(n, w.nodePods[n.Name], w.specs))
}

// observeEvent writes an event's line when it is new or changed. Events
// expire; that is not a change worth a line.
func (w *Writer) observeEvent(t time.Duration, e *corev1.Event, deleted bool) {
	key := objectKey{e.Namespace, e.Name}
	if deleted {
		delete(w.events, key)
		return
	}
	if l, ok := projectEvent(e); ok && record(w.events, key, l) {
		w.writeEvent(t, l)
	}
}

// updateNode writes the node's line when it differs from the last one and
// returns the projection to keep.
func (w *Writer) updateNode(t time.Duration, name string, l nodeLine) nodeLine {
	if w.instant != nil {
		w.instant.hold(name)
		return l
	}
	if old, ok := w.nodes[name]; !ok || old != l {
		w.writeNode(t, name, l)
	}
	return l
}

// observePod moves the pod's count between nodes when its binding changes,
// and rewrites the lines of the nodes whose count changed. prev, when
// known, is the version p replaced, whose binding podNode holds.
func (w *Writer) observePod(t time.Duration, p, prev *corev1.Pod, deleted bool) {
	if prev != nil && !deleted && podBinding(prev) == podBinding(p) {
		return
	}
	key := objectKey{p.Namespace, p.Name}
	was := w.podNode[key]
	now := ""
	if !deleted {
		now = podBinding(p)
	}
	if was == now {
		return
	}
	if now == "" {
		delete(w.podNode, key)
	} else {
		w.podNode[key] = now
	}
	if was != "" {
		w.addPods(t, was, -1)
	}
	if now != "" {
		w.addPods(t, now, +1)
	}
}

func (w *Writer) addPods(t time.Duration, node string, delta int) {
	n := w.nodePods[node] + delta
	if n == 0 {
		delete(w.nodePods, node)
	} else {
		w.nodePods[node] = n
	}
	if l, ok := w.nodes[node]; ok {
		l.pods = n
		w.nodes[node] = w.updateNode(t, node, l)
	}
}

// Action writes the outcome of a scenario or console action: result is "ok"
// or the error text.
// The scenario's scripted actions report in file order, one call each
// (Script): the line also says what the action set.
func (w *Writer) Action(now time.Time, kind, target, result string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.instant.reach(w, now.Sub(w.start))
	w.writeAction(now.Sub(w.start), kind, target, result, w.nextSet(kind))
}

// End writes the last line of a run, saying why it stopped.
func (w *Writer) End(now time.Time, reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.instant.close(w)
	w.writeEnd(now.Sub(w.start), reason)
}

// Flush writes out buffered lines and reports the first write error, if any.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.instant.close(w)
	if err := w.out.Flush(); err != nil {
		return fmt.Errorf("write trace: %w", err)
	}
	return nil
}
