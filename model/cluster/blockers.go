package cluster

import (
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// blocker is the deployment's blocker line from what the picture holds: the
// tallies of its ReplicaSets' pods, the nodes, and the events about each
// pod. newRS is d's new ReplicaSet among rss, found by the caller. It is
// "" while the picture does not hold the namespace's pods (a console that
// watched only some, until they are listed): a line read from pods it does
// not have would name what is not so.
func (c *Cluster) blocker(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, now time.Time) string {
	if !c.watch.HoldsPods(d.Namespace) {
		return ""
	}
	scan := c.scanTallies(d.Namespace, rss)
	isOurs := func(pod string) bool {
		pe := c.pods[objectKey(d.Namespace, pod)]
		if pe == nil {
			return false
		}
		for _, rs := range rss {
			if pe.facts.owner == rs.UID {
				return true
			}
		}
		return false
	}
	var nodes []*corev1.Node
	for _, n := range c.fleetBook.blockedNodes {
		nodes = append(nodes, n)
	}
	eventsOf := func(pod string) []*corev1.Event { return c.podEvents(d.Namespace, pod) }
	return blocker(rolloutParts{d: d, rss: rss, nodes: nodes, eventsOf: eventsOf, now: now, newRS: newRS, newKnown: true}, scan, isOurs)
}

// scanTallies hands the tallies of rss's pods in namespace to a podScan.
func (c *Cluster) scanTallies(namespace string, rss []*appsv1.ReplicaSet) func(*podScan) {
	return func(s *podScan) {
		for _, rs := range rss {
			if t := c.tallies[tallyKey{rs.UID, namespace}]; t != nil {
				s.addTally(t, rs.UID)
			}
		}
	}
}

// fileEntry refiles a pod's entry from its old controlling owner to its
// current one: was is the entry it had (nil: new pod), pe its new one (nil:
// the pod is gone).
func (c *Cluster) fileEntry(old types.UID, hadOld bool, cur types.UID, hasCur bool, was, pe *podEntry) {
	c.retally(was, pe)
	if hadOld && was != nil && hasCur && pe != nil && old == cur {
		if set := c.entriesByOwner[cur]; set != nil && set.replace(was, pe) {
			return
		}
	}
	if hadOld && was != nil {
		if set := c.entriesByOwner[old]; set != nil {
			set.remove(was)
			if len(set.list) == 0 {
				delete(c.entriesByOwner, old)
			}
		}
	}
	if hasCur && pe != nil {
		set := c.entriesByOwner[cur]
		if set == nil {
			set = &entrySet{}
			c.entriesByOwner[cur] = set
		}
		set.add(pe)
	}
}

// entrySet is one owner's pod entries in a slice, which the blocker walks
// far faster than a map. Each entry knows its place (podEntry.slot), so a
// pod's update replaces its entry without a lookup: a map from pod name to
// place cost a fifth of applying a batch of pods.
type entrySet struct {
	list []*podEntry
	// flagged counts the entries the fleet's row must look at (podFlagged),
	// so that the rows of healthy workloads skip their pods.
	flagged int
}

// podFlagged reports whether a pod shows something the fleet names: a
// crash loop, an image that cannot be pulled, no node that fits.
func podFlagged(pe *podEntry) bool {
	f := &pe.facts
	return f.active && (f.looping || f.pullReason != "" || f.unschedulable)
}

func (s *entrySet) count(pe *podEntry, n int) {
	if podFlagged(pe) {
		s.flagged += n
	}
}

// place is was's index in the list, or -1.
func (s *entrySet) place(was *podEntry) int {
	if i := int(was.slot); i < len(s.list) && s.list[i] == was {
		return i
	}
	return slices.Index(s.list, was)
}

func (s *entrySet) add(pe *podEntry) {
	s.count(pe, 1)
	pe.slot = int32(len(s.list))
	s.list = append(s.list, pe)
}

// replace puts pe in was's place; false when was is not there.
func (s *entrySet) replace(was, pe *podEntry) bool {
	i := s.place(was)
	if i < 0 {
		return false
	}
	s.count(was, -1)
	s.count(pe, 1)
	s.list[i], pe.slot = pe, int32(i)
	return true
}

func (s *entrySet) remove(was *podEntry) {
	i := s.place(was)
	if i < 0 {
		return
	}
	s.count(was, -1)
	last := len(s.list) - 1
	s.list[i] = s.list[last]
	s.list[i].slot = int32(i)
	s.list[last] = nil
	s.list = s.list[:last]
}

// podEvents are the events held about a pod, in no particular order.
func (c *Cluster) podEvents(namespace, pod string) []*corev1.Event {
	var out []*corev1.Event
	for key := range c.eventsByObject[ObjectRef{Kind: "Pod", Namespace: namespace, Name: pod}] {
		if e := c.events[key]; e != nil {
			out = append(out, e)
		}
	}
	return out
}

// Blocker is the deployment's blocker line alone (RolloutView.Blocker), ""
// when the deployment is not in the picture.
func (c *Cluster) Blocker(namespace, name string, now time.Time) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d := c.deployments[objectKey(namespace, name)]
	if d == nil {
		return ""
	}
	rss := c.ownedReplicaSets(d)
	newRS := model.FindNewReplicaSet(d, rss)
	// A canary's own line says what holds it, as on the rollout page.
	var v RolloutView
	if c.canaryView(&v, d, newRS, now); v.Canary != nil {
		return v.Canary.Sentence(now)
	}
	return c.blocker(d, rss, newRS, now)
}
