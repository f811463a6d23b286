package model

import (
	"encoding/json"
	"fmt"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// FindRevision picks the ReplicaSet `kubectl rollout undo --to-revision`
// goes back to among rss, the ReplicaSets the deployment owns: the one at
// toRevision, or for 0 the one before the latest.
func FindRevision(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, toRevision int64) (*appsv1.ReplicaSet, error) {
	if toRevision < 0 {
		return nil, fmt.Errorf("unable to find specified revision %v in history", toRevision)
	}
	var latest, previous *appsv1.ReplicaSet
	latestRev, previousRev := int64(-1), int64(-1)
	for _, rs := range kubectlOrder(d, rss) {
		v, err := Revision(rs)
		if err != nil {
			continue
		}
		switch {
		case toRevision > 0:
			if v == toRevision {
				return rs, nil
			}
		case v > latestRev:
			previous, previousRev = latest, latestRev
			latest, latestRev = rs, v
		case v > previousRev:
			previous, previousRev = rs, v
		}
	}
	if toRevision > 0 {
		return nil, fmt.Errorf("unable to find specified revision %v in history", toRevision)
	}
	if previous == nil {
		return nil, fmt.Errorf("no rollout history found for deployment %q", d.Name)
	}
	return previous, nil
}

// kubectlOrder lists the ReplicaSets as kubectl walks them: the old ones
// oldest first, then the new one.
func kubectlOrder(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	sorted := nonNil(slices.Clone(rss))
	SortByCreationTimestamp(sorted)
	_, all := FindOldReplicaSets(d, sorted)
	if newRS := FindNewReplicaSet(d, sorted); newRS != nil {
		all = append(all, newRS)
	}
	return all
}

// RollbackPatch is the JSON patch (application/json-patch+json) `kubectl
// rollout undo` sends to put rs's template and annotations back on d.
func RollbackPatch(d *appsv1.Deployment, rs *appsv1.ReplicaSet) ([]byte, error) {
	t := TemplateFromReplicaSet(rs)
	return restorePatch(&t, DeploymentAnnotationsFrom(d, rs))
}

// restorePatch is the JSON patch that replaces a deployment's pod template
// and its annotations.
func restorePatch(t *corev1.PodTemplateSpec, annotations map[string]string) ([]byte, error) {
	type op struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	b, err := json.Marshal([]op{
		{Op: "replace", Path: "/spec/template", Value: t},
		{Op: "replace", Path: "/metadata/annotations", Value: annotations},
	})
	if err != nil {
		return nil, fmt.Errorf("encode rollback patch: %w", err)
	}
	return b, nil
}
