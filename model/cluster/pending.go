package cluster

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// pendingChange says how the deployment's pod template differs from the one
// its current revision runs, "" when no ReplicaSet is missing: the change
// `kubectl set image` made to a paused deployment, which no ReplicaSet runs
// until it is resumed, and which an undo to the current revision number
// would throw away. The current revision is the ReplicaSet the deployment's
// revision annotation names.
func pendingChange(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) string {
	if newRS != nil || len(rss) == 0 {
		return ""
	}
	current := revisionOrZero(d)
	var running *appsv1.ReplicaSet
	for _, rs := range rss {
		if rs != nil && revisionOrZero(rs) == current {
			running = rs
		}
	}
	if running == nil {
		return "pod template changed"
	}
	return templateChange(&running.Spec.Template, &d.Spec.Template)
}

// templateChange names what changed from one template to the next: the
// images, container by container, or only that something else did.
func templateChange(from, to *corev1.PodTemplateSpec) string {
	was := map[string]string{}
	for _, c := range from.Spec.Containers {
		was[c.Name] = c.Image
	}
	var changes []string
	for _, c := range to.Spec.Containers {
		if old, ok := was[c.Name]; !ok {
			changes = append(changes, c.Name+" added ("+c.Image+")")
		} else if old != c.Image {
			changes = append(changes, c.Name+" "+old+" → "+c.Image)
		}
	}
	if len(changes) == 0 {
		return "pod template changed (not its images)"
	}
	return strings.Join(changes, ", ")
}
