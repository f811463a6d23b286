package model

import (
	"cmp"
	"slices"
	"strings"
)

// Deployments is the deployment picker's list, by namespace then name.
func (c *Cluster) Deployments() []DeploymentSummary {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]DeploymentSummary, 0, len(c.deployments))
	for _, d := range c.deployments {
		_, done := rolloutStatus(d)
		out = append(out, DeploymentSummary{
			Namespace: d.Namespace, Name: d.Name,
			Replicas:  DesiredReplicas(d),
			Updated:   d.Status.UpdatedReplicas,
			Available: d.Status.AvailableReplicas,
			Paused:    d.Spec.Paused,
			Done:      done,
		})
	}
	slices.SortFunc(out, func(a, b DeploymentSummary) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	return out
}
