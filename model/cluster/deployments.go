package cluster

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"rollscope/model"
)

// Deployments is the deployment picker's list, by namespace then name.
func (c *Cluster) Deployments() []DeploymentSummary {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]DeploymentSummary, 0, len(c.deployments))
	for _, d := range c.deployments {
		status, done := rolloutStatus(d)
		out = append(out, DeploymentSummary{
			Namespace: d.Namespace, Name: d.Name,
			Replicas:  model.DesiredReplicas(d),
			Total:     d.Status.Replicas,
			Updated:   d.Status.UpdatedReplicas,
			Available: d.Status.AvailableReplicas,
			Paused:    d.Spec.Paused,
			Status:    status,
			Done:      done,
			Failed:    failed(d),
		})
	}
	slices.SortFunc(out, func(a, b DeploymentSummary) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	return out
}

// StatusLine is a deployment's line in rollscope's plain output, the same
// embedded and live: "deployment/frontend 25 desired · 26 total · 3 updated
// · 23 available — Waiting for deployment "frontend" rollout to finish: ...",
// with PAUSED after the name of a paused deployment.
func StatusLine(d DeploymentSummary) string {
	paused := ""
	if d.Paused {
		paused = " PAUSED"
	}
	return fmt.Sprintf("deployment/%s%s %d desired · %d total · %d updated · %d available — %s",
		d.Name, paused, d.Replicas, d.Total, d.Updated, d.Available, d.Status)
}
