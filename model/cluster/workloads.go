package cluster

import (
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
	"rollscope/model/kind"
)

// WorkloadSummary is one workload of a kind with a page of its own in the
// picker.
type WorkloadSummary struct {
	Kind            kind.Kind
	Namespace, Name string
	// Desired is the pods it should run (spec.replicas, or a node each);
	// Updated and Available are the status counts.
	Desired, Updated, Available int32
	Status                      string
	Done                        bool
}

// WorkloadRevision is one ControllerRevision of a workload's history, as
// `kubectl rollout history` lists it, with what rolling back to it would
// change.
type WorkloadRevision struct {
	Revision int64
	Name     string
	Images   []string
	// Current is the revision of the template the object has now.
	Current bool
	// Diff is from the current template to this revision's, as every undo
	// diff reads (UndoDiffLegend): '-' lines go away, '+' lines are what an
	// undo to it brings back.
	Diff []DiffLine
}

// Workloads lists the workloads of the kinds with a page of their own, by
// kind (in reverse: statefulsets before daemonsets), namespace and name, for
// the picker.
func (c *Cluster) Workloads() []WorkloadSummary {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []WorkloadSummary
	for k, held := range c.workloads.byKind {
		if summary := kinds[k].summary; summary != nil {
			for _, w := range held {
				out = append(out, summary(w))
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind > b.Kind
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}

func statusLine(msg string, err error) string {
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(msg)
}

func containerImages(t *corev1.PodTemplateSpec) []string {
	var out []string
	for _, ct := range t.Spec.Containers {
		out = append(out, ct.Name+"="+ct.Image)
	}
	return out
}

// history is the revisions of an object with template now, each with the
// diff an undo to it would make; current names the revision that matches.
func (c *Cluster) history(revs []*appsv1.ControllerRevision, now *corev1.PodTemplateSpec, current func(*appsv1.ControllerRevision) bool) []WorkloadRevision {
	out := make([]WorkloadRevision, 0, len(revs))
	for _, r := range revs {
		row := WorkloadRevision{Revision: r.Revision, Name: r.Name, Current: current(r)}
		if t, err := model.RevisionTemplate(r); err == nil {
			row.Images = containerImages(&t)
			row.Diff = TemplateDiff(now, &t)
		} else {
			row.Diff = []DiffLine{{Op: ' ', Text: err.Error()}}
		}
		out = append(out, row)
	}
	return out
}
