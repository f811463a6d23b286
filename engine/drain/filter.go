package drain

import (
	"errors"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
	"rollscope/model/kind"
)

// Messages of kubectl drain's pod filters; tools and people grep for them.
const (
	msgDaemonSet          = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	msgIgnoringDaemonSet  = "ignoring DaemonSet-managed Pods"
	msgLocalStorage       = "Pods with local storage (use --delete-emptydir-data to override)"
	msgDeletingLocal      = "deleting Pods with local storage"
	msgUnreplicated       = "Pods that declare no controller (use --force to override)"
	msgDeletingUnreplicat = "deleting Pods that declare no controller"
)

// verdict is one filter's decision about one pod.
type verdict struct {
	evict bool
	kind  verdictKind
	msg   string
}

type verdictKind int

const (
	okay verdictKind = iota
	skip
	warn
	refuse
)

// Plan is what a drain does with a node's pods: which it evicts, and what
// kubectl would warn about or refuse.
type Plan struct {
	// Evict are the pods the drain removes, in the order given.
	Evict []*corev1.Pod
	// Warnings and Refusals group pod names ("ns/name") by message, in the
	// order the messages first appeared.
	Warnings, Refusals []Group
}

// Group is one message and the pods it is about.
type Group struct {
	Message string
	Pods    []string
}

// Reads is the one workload kind a drain reads: as kubectl's, it leaves
// the pods of a DaemonSet it finds be (IgnoreDaemonSets) and deletes those
// of one that is gone. A runner that drives drains watches it.
const Reads = kind.DaemonSet

// DaemonSetLookup tells whether a DaemonSet exists; it returns the error a
// GET would (NotFound included).
type DaemonSetLookup func(namespace, name string) error

// Err is the drain's refusal, nil when no pod is refused: one "cannot delete
// <message>: <pods>" per message, as kubectl prints them.
func (p Plan) Err() error {
	if len(p.Refusals) == 0 {
		return nil
	}
	parts := make([]string, 0, len(p.Refusals))
	for _, g := range p.Refusals {
		parts = append(parts, fmt.Sprintf("cannot delete %s: %s", g.Message, strings.Join(g.Pods, ", ")))
	}
	return errors.New(strings.Join(parts, "; "))
}

// WarningText is kubectl's warning line without its "Warning: " prefix.
func (p Plan) WarningText() string {
	parts := make([]string, 0, len(p.Warnings))
	for _, g := range p.Warnings {
		parts = append(parts, fmt.Sprintf("%s: %s", g.Message, strings.Join(g.Pods, ", ")))
	}
	return strings.Join(parts, "; ")
}

// Filter applies kubectl drain's filters, in kubectl's order, to the pods of
// one node. Each pod goes through the filters until one keeps it on the
// node; the last filter it went through decides its warning or refusal.
func Filter(pods []*corev1.Pod, o Options, daemonSets DaemonSetLookup, now time.Time) Plan {
	var p Plan
	for _, pod := range pods {
		var v verdict
		for _, f := range []func(*corev1.Pod) verdict{
			func(pod *corev1.Pod) verdict { return skipDeleted(pod, o, now) },
			func(pod *corev1.Pod) verdict { return daemonSetPod(pod, o, daemonSets) },
			mirrorPod,
			func(pod *corev1.Pod) verdict { return localStorage(pod, o) },
			func(pod *corev1.Pod) verdict { return unreplicated(pod, o) },
		} {
			if v = f(pod); !v.evict {
				break
			}
		}
		name := pod.Namespace + "/" + pod.Name
		switch v.kind {
		case refuse:
			p.Refusals = addTo(p.Refusals, v.msg, name)
		case warn:
			p.Warnings = addTo(p.Warnings, v.msg, name)
		}
		if v.evict {
			p.Evict = append(p.Evict, pod)
		}
	}
	return p
}

func addTo(groups []Group, msg, pod string) []Group {
	for i := range groups {
		if groups[i].Message == msg {
			groups[i].Pods = append(groups[i].Pods, pod)
			return groups
		}
	}
	return append(groups, Group{Message: msg, Pods: []string{pod}})
}

// SkipDeleted is kubectl's first filter on its own: a pod whose deletion
// started longer ago than the skip-wait timeout is not waited for.
func SkipDeleted(deletedAt *metav1.Time, skipWaitSeconds int, now time.Time) bool {
	return skipWaitSeconds > 0 && deletedAt != nil && now.Sub(deletedAt.Time) > time.Duration(skipWaitSeconds)*time.Second
}

func skipDeleted(pod *corev1.Pod, o Options, now time.Time) verdict {
	if SkipDeleted(pod.DeletionTimestamp, o.SkipWaitForDeleteTimeoutSeconds, now) {
		return verdict{kind: skip}
	}
	return verdict{evict: true}
}

func finished(pod *corev1.Pod) bool {
	return pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
}

func daemonSetPod(pod *corev1.Pod, o Options, daemonSets DaemonSetLookup) verdict {
	ref := metav1.GetControllerOf(pod)
	if ref == nil || ref.Kind != "DaemonSet" || ref.APIVersion != "apps/v1" || finished(pod) {
		return verdict{evict: true}
	}
	if err := daemonSets(pod.Namespace, ref.Name); err != nil {
		if apierrors.IsNotFound(err) && o.Force {
			return verdict{evict: true, kind: warn, msg: err.Error()}
		}
		return verdict{kind: refuse, msg: err.Error()}
	}
	if !o.IgnoreDaemonSets {
		return verdict{kind: refuse, msg: msgDaemonSet}
	}
	return verdict{kind: warn, msg: msgIgnoringDaemonSet}
}

func mirrorPod(pod *corev1.Pod) verdict {
	if _, ok := pod.Annotations[model.MirrorPodAnnotation]; ok {
		return verdict{kind: skip}
	}
	return verdict{evict: true}
}

func localStorage(pod *corev1.Pod, o Options) verdict {
	hasEmptyDir := false
	for _, v := range pod.Spec.Volumes {
		if v.EmptyDir != nil {
			hasEmptyDir = true
			break
		}
	}
	switch {
	case !hasEmptyDir || finished(pod):
		return verdict{evict: true}
	case !o.DeleteEmptyDirData:
		return verdict{kind: refuse, msg: msgLocalStorage}
	}
	return verdict{evict: true, kind: warn, msg: msgDeletingLocal}
}

func unreplicated(pod *corev1.Pod, o Options) verdict {
	switch {
	case finished(pod) || metav1.GetControllerOf(pod) != nil:
		return verdict{evict: true}
	case o.Force:
		return verdict{evict: true, kind: warn, msg: msgDeletingUnreplicat}
	}
	return verdict{kind: refuse, msg: msgUnreplicated}
}
