package cluster

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// The timeline entries Apply derives from what changed between batches.

// noteScale records a ReplicaSet changing size, as `kubectl get rs -w` would
// show it. A ReplicaSet that appears after the initial listing is a new
// rollout step, so its first size is noted too.
func (c *Cluster) noteScale(old, cur *appsv1.ReplicaSet, u update) {
	deployment, ok := c.deploymentOf(cur)
	if !ok {
		return
	}
	object := "replicaset/" + cur.Name
	to := model.SpecReplicas(cur)
	var msg string
	switch {
	case old == nil && u.synced:
		msg = fmt.Sprintf("%s created with %s", object, model.Plural(to, "replica"))
	case old != nil && model.SpecReplicas(old) != to:
		msg = fmt.Sprintf("%s scaled from %d to %d", object, model.SpecReplicas(old), to)
	default:
		return
	}
	c.note(deployment, TimelineEntry{Time: u.at, Kind: TimelineScale, Object: object, Message: msg})
}

// noteConditions records changes of the Progressing and Available
// conditions' status or reason; a new message alone is not a change. It is
// where Apply compares a deployment with its last state, so it also notes an
// abort recorded since (noteAbort).
func (c *Cluster) noteConditions(key string, old, cur *appsv1.Deployment, at time.Time) {
	defer c.noteAbort(key, old, cur, at)
	for _, t := range []appsv1.DeploymentConditionType{appsv1.DeploymentProgressing, appsv1.DeploymentAvailable} {
		was := model.GetDeploymentCondition(old.Status, t)
		now := model.GetDeploymentCondition(cur.Status, t)
		if now == nil || (was != nil && was.Status == now.Status && was.Reason == now.Reason) {
			continue
		}
		msg := fmt.Sprintf("%s=%s %s", t, now.Status, now.Reason)
		if now.Message != "" {
			msg += ": " + now.Message
		}
		c.note(key, TimelineEntry{
			Time: at, Kind: TimelineCondition, Object: "deployment/" + cur.Name, Message: msg,
			Warning: now.Status == corev1.ConditionFalse,
		})
	}
}

// noteEvent records an event about a deployment or one of its ReplicaSets,
// at the time the event last happened when it says so. An event about an
// object not in the picture yet is kept (and indexed) without an entry;
// replayEvents notes it when the object arrives.
func (c *Cluster) noteEvent(e *corev1.Event, at time.Time) {
	about := involved(e)
	var deployment string
	switch about.Kind {
	case "Deployment":
		deployment = objectKey(about.Namespace, about.Name)
		d, ok := c.deployments[deployment]
		if !ok || !sameUID(e, d.UID) {
			return
		}
	case "ReplicaSet":
		rs := c.replicaSets[objectKey(about.Namespace, about.Name)]
		if rs == nil || !sameUID(e, rs.UID) {
			return
		}
		var ok bool
		if deployment, ok = c.deploymentOf(rs); !ok {
			return
		}
	case "Pod":
		c.notePodWarning(e, at)
		return
	default:
		return
	}
	if !e.LastTimestamp.IsZero() {
		at = e.LastTimestamp.Time
	}
	msg := e.Message
	if e.Reason != "" {
		msg = e.Reason + ": " + msg
	}
	if n := eventCount(e); n > 1 {
		msg += fmt.Sprintf(" (x%d)", n)
	}
	c.note(deployment, TimelineEntry{
		Time: at, Kind: TimelineEvent, Object: strings.ToLower(about.Kind) + "/" + about.Name, Message: msg,
		Warning: e.Type == corev1.EventTypeWarning,
	})
}

// replayEvents notes the events already held about an object seen for the
// first time: the watch may deliver an event before the object it is about.
func (c *Cluster) replayEvents(about ObjectRef, at time.Time) {
	for _, key := range c.eventsByObject.sorted(about) {
		if e := c.events[key]; e != nil {
			c.noteEvent(e, at)
		}
	}
}

// sameUID reports whether the event is about the object with uid, not an
// earlier one of the same name; events that do not say are taken at their word.
func sameUID(e *corev1.Event, uid types.UID) bool {
	return e.InvolvedObject.UID == "" || uid == "" || e.InvolvedObject.UID == uid
}

// deploymentOf is the key of the known deployment controlling rs.
func (c *Cluster) deploymentOf(rs *appsv1.ReplicaSet) (string, bool) {
	ref := controllerOf(rs)
	if ref == nil || ref.Kind != "Deployment" {
		return "", false
	}
	key := objectKey(rs.Namespace, ref.Name)
	d, ok := c.deployments[key]
	if !ok || d.UID != ref.UID {
		return "", false
	}
	return key, true
}

// eventCount is how many times the event happened: the older count field,
// or the series count of events recorded through events.k8s.io.
func eventCount(e *corev1.Event) int32 {
	if e.Series != nil && e.Series.Count > e.Count {
		return e.Series.Count
	}
	return e.Count
}

// recounted reports whether an event happened again: the recorder bumps the
// count (and last timestamp) of an event rather than creating a new one.
func recounted(old, cur *corev1.Event) bool {
	return eventCount(old) != eventCount(cur) || !old.LastTimestamp.Equal(&cur.LastTimestamp)
}
