package model

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Fleet is every workload in namespace ("" for all namespaces), one row
// each, sorted by SortFleet. now is the cluster's clock.
func (c *RCCluster) Fleet(namespace string, now time.Time) []FleetRow {
	rows := c.Cluster.fleet(namespace, now)
	var rcs []*corev1.ReplicationController
	c.mu.RLock()
	for _, rc := range c.rcs {
		if namespace == "" || rc.Namespace == namespace {
			rcs = append(rcs, rc)
		}
	}
	c.mu.RUnlock()
	c.Cluster.mu.RLock()
	for _, rc := range rcs {
		rows = append(rows, c.Cluster.rcFleetRow(rc))
	}
	c.Cluster.mu.RUnlock()
	SortFleet(rows)
	return rows
}

func (c *Cluster) fleet(namespace string, now time.Time) []FleetRow {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var rows []FleetRow
	for _, d := range c.deployments {
		if namespace == "" || d.Namespace == namespace {
			rows = append(rows, c.deploymentFleetRow(d, now))
		}
	}
	for _, s := range c.workloads.sets {
		if namespace == "" || s.Namespace == namespace {
			rows = append(rows, c.statefulSetFleetRow(s))
		}
	}
	for _, ds := range c.workloads.daemons {
		if namespace == "" || ds.Namespace == namespace {
			rows = append(rows, c.daemonSetFleetRow(ds))
		}
	}
	return rows
}

func (c *Cluster) deploymentFleetRow(d *appsv1.Deployment, now time.Time) FleetRow {
	rss := c.ownedReplicaSets(d)
	newRS := FindNewReplicaSet(d, rss)
	status, done := rolloutStatus(d)
	r := FleetRow{
		Namespace: d.Namespace, Kind: FleetDeployment, Name: d.Name,
		Revision:  revisionOrZero(d),
		Images:    containerImages(&d.Spec.Template),
		Desired:   DesiredReplicas(d),
		Updated:   d.Status.UpdatedReplicas,
		Available: d.Status.AvailableReplicas,
		Since:     d.CreationTimestamp.Time,
		Changed:   d.CreationTimestamp.Time,
	}
	if newRS != nil {
		r.Since = newRS.CreationTimestamp.Time
		r.ChangeCause = changeCause(newRS)
	}
	if p := GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); p != nil && p.LastUpdateTime.After(r.Changed) {
		r.Changed = p.LastUpdateTime.Time
	}
	if !done {
		r.From = rollingFrom(d, rss, newRS)
	}
	crash := c.crashLooping(rss, d.Namespace)
	canary, isCanary, _ := ReadCanary(d)
	switch {
	case failed(d):
		r.State, r.Why = FleetFailed, status
	case isCanary && canary.State.Phase == CanaryFailed:
		r.State, r.Why = FleetStuck, "canary gate failed — "+canary.State.Gate
	case crash != "":
		r.State, r.Why = FleetCrashLooping, crash
	case d.Spec.Paused:
		r.State, r.Why = FleetPaused, status
	case isCanary:
		r.State, r.Why = FleetCanary, status
	case !done:
		if b := c.blocker(d, rss, now); b != "" {
			r.State, r.Why = FleetStuck, b
		} else if !r.Changed.IsZero() && now.Sub(r.Changed) >= FleetStuckAfter {
			r.State, r.Why = FleetStuck, fmt.Sprintf("no progress for %s — %s", shortDuration(now.Sub(r.Changed)), status)
		} else {
			r.State, r.Why = FleetRolling, status
		}
	case c.onDrainingNode(rss, d.Namespace):
		r.State, r.Why = FleetNodeRoll, "its pods are moving off nodes being drained"
	default:
		r.State = FleetComplete
	}
	r.Word = r.State.String()
	if isCanary && r.State == FleetCanary {
		r.Word = fmt.Sprintf("canary step %d/%d", canary.State.Step, canary.Plan.Last())
	}
	return r
}

// rollingFrom is the images of the newest old ReplicaSet that still has
// pods, when they differ from the deployment's.
func rollingFrom(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) []string {
	var from *appsv1.ReplicaSet
	for _, rs := range rss {
		if rs == newRS || rs.Status.Replicas == 0 {
			continue
		}
		if from == nil || revisionOrZero(rs) > revisionOrZero(from) {
			from = rs
		}
	}
	if from == nil {
		return nil
	}
	imgs := containerImages(&from.Spec.Template)
	if fmt.Sprint(imgs) == fmt.Sprint(containerImages(&d.Spec.Template)) {
		return nil
	}
	return imgs
}

// crashLooping names the first crash-looping pod of rss, or "".
func (c *Cluster) crashLooping(rss []*appsv1.ReplicaSet, namespace string) string {
	for _, rs := range rss {
		if s := c.crashLoopingOwned(rs.UID, namespace); s != "" {
			return s
		}
	}
	return ""
}

func (c *Cluster) crashLoopingOwned(uid types.UID, namespace string) string {
	set := c.entriesByOwner[uid]
	if set == nil {
		return ""
	}
	for _, pe := range set.list {
		if pe.pod.Namespace == namespace && pe.facts.active && crashLoopReason(pe.pod) != "" {
			return fmt.Sprintf("pod %s: %s (%d restarts)", pe.pod.Name, crashLoopReason(pe.pod), pe.facts.restarts)
		}
	}
	return ""
}

func crashLoopReason(p *corev1.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && w.Reason == "CrashLoopBackOff" {
			return w.Reason
		}
	}
	return ""
}

// onDrainingNode reports whether an active pod of rss sits on a cordoned
// node: a drain or node roll is moving it.
func (c *Cluster) onDrainingNode(rss []*appsv1.ReplicaSet, namespace string) bool {
	for _, rs := range rss {
		set := c.entriesByOwner[rs.UID]
		if set == nil {
			continue
		}
		for _, pe := range set.list {
			if pe.pod.Namespace != namespace || !pe.facts.active {
				continue
			}
			if n := c.nodes[pe.pod.Spec.NodeName]; n != nil && n.Spec.Unschedulable {
				return true
			}
		}
	}
	return false
}

func (c *Cluster) statefulSetFleetRow(s *appsv1.StatefulSet) FleetRow {
	msg, done, err := StatefulSetRolloutStatus(s)
	r := FleetRow{Namespace: s.Namespace, Kind: FleetStatefulSet, Name: s.Name,
		Images: containerImages(&s.Spec.Template), Desired: StatefulSetReplicas(s),
		Updated: s.Status.UpdatedReplicas, Available: s.Status.AvailableReplicas,
		Since: s.CreationTimestamp.Time, Changed: s.CreationTimestamp.Time}
	r.Revision = int64(len(c.ownedRevisions(s.Namespace, s.UID)))
	return workloadState(r, statusLine(msg, err), done, err)
}

func (c *Cluster) daemonSetFleetRow(ds *appsv1.DaemonSet) FleetRow {
	msg, done, err := DaemonSetRolloutStatus(ds)
	r := FleetRow{Namespace: ds.Namespace, Kind: FleetDaemonSet, Name: ds.Name,
		Images: containerImages(&ds.Spec.Template), Desired: ds.Status.DesiredNumberScheduled,
		Updated: ds.Status.UpdatedNumberScheduled, Available: ds.Status.NumberAvailable,
		Since: ds.CreationTimestamp.Time, Changed: ds.CreationTimestamp.Time}
	r.Revision = int64(len(c.ownedRevisions(ds.Namespace, ds.UID)))
	return workloadState(r, statusLine(msg, err), done, err)
}

func workloadState(r FleetRow, status string, done bool, err error) FleetRow {
	switch {
	case err != nil:
		r.State, r.Why = FleetFailed, status
	case !done:
		r.State, r.Why = FleetRolling, status
	default:
		r.State = FleetComplete
	}
	r.Word = r.State.String()
	return r
}

// rcFleetRow is a ReplicationController's row; the Cluster's lock is held.
func (c *Cluster) rcFleetRow(rc *corev1.ReplicationController) FleetRow {
	row := c.rcRow(rc)
	r := FleetRow{Namespace: rc.Namespace, Kind: FleetReplicationController, Name: rc.Name,
		Images: row.Images, Desired: row.Desired, Updated: row.Current, Available: row.Available,
		Since: rc.CreationTimestamp.Time, Changed: rc.CreationTimestamp.Time}
	done := row.Available >= row.Desired
	status := fmt.Sprintf("%d of %d pods available", row.Available, row.Desired)
	if _, updating := rc.Annotations[RCNextAnnotation]; updating {
		done = false
		status = "rolling update under way"
	}
	return workloadState(r, status, done, nil)
}
