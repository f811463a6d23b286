package cluster

import (
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// Errors RevisionDiff wraps, for callers that tell the cases apart.
var (
	errUnknownDeployment = errors.New("deployment not in the console's picture")
	errUnknownRevision   = errors.New("revision not found")
)

// TemplateDiff compares two pod templates line by line over a stable
// YAML-like rendering, the way a unified diff reads: unchanged lines with
// ' ', lines only in from with '-', lines only in to with '+'. A nil
// template renders as no lines, so a diff from nil is all additions. Two
// templates that differ only in the pod-template-hash label are equal.
func TemplateDiff(from, to *corev1.PodTemplateSpec) []DiffLine {
	a, errA := renderTemplate(from)
	b, errB := renderTemplate(to)
	if err := errors.Join(errA, errB); err != nil {
		// Pod templates always marshal; should one not, say so in the diff
		// rather than show a misleading one.
		return []DiffLine{{Op: ' ', Text: "cannot compare the templates: " + err.Error()}}
	}
	return diffLines(a, b)
}

// UndoDiffLegend is what the signs of an undo's diff mean, said once over
// every such diff: each goes from the current template to the revision's.
const UndoDiffLegend = "- goes away, + an undo brings back"

// RevisionDiff is what an undo to revision would change in the deployment's
// current pod template, current → revision as every undo diff reads: '-'
// lines are in the current template only (they go away), '+' lines in the
// revision only (the undo brings them back). The current revision diffs as
// all unchanged. A revision the history shows as Gone still diffs,
// from the ReplicaSet a rollback reused for it.
func (c *Cluster) RevisionDiff(namespace, name string, revision int64) ([]DiffLine, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d := c.deployments[objectKey(namespace, name)]
	if d == nil {
		return nil, fmt.Errorf("show the changes of revision %d: deployment %s/%s: %w (deleted, or the watch has not synced yet)",
			revision, namespace, name, errUnknownDeployment)
	}
	templates := revisionTemplates(c.ownedReplicaSets(d))
	from, ok := templates[revision]
	if !ok {
		return nil, fmt.Errorf("show the changes of deployment %s/%s at revision %d: %w: no ReplicaSet ran it (it never existed, or revisionHistoryLimit cleaned it up) — pick a revision the history lists",
			namespace, name, revision, errUnknownRevision)
	}
	return TemplateDiff(&d.Spec.Template, from), nil
}

// revisionTemplates maps each revision the ReplicaSets ran as to its pod
// template: a ReplicaSet's own revision wins over one that only its
// revision-history annotation names.
func revisionTemplates(rss []*appsv1.ReplicaSet) map[int64]*corev1.PodTemplateSpec {
	out := map[int64]*corev1.PodTemplateSpec{}
	for _, rs := range rss {
		for _, r := range historyRevisions(rs) {
			out[r] = &rs.Spec.Template
		}
	}
	for _, rs := range rss {
		if r, err := model.Revision(rs); err == nil && r > 0 {
			out[r] = &rs.Spec.Template
		}
	}
	return out
}
