package model

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// blocker is the deployment's blocker line from what the picture holds: its
// ReplicaSets' pods in no particular order (Blocker picks by what it finds,
// never by position), the nodes, and the events about each pod.
func (c *Cluster) blocker(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, now time.Time) string {
	scan := func(s *podScan) {
		for _, rs := range rss {
			set := c.entriesByOwner[rs.UID]
			if set == nil {
				continue
			}
			for _, pe := range set.list {
				if pe.pod.Namespace == d.Namespace {
					s.add(&pe.facts)
				}
			}
		}
	}
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
	return blocker(rolloutParts{d: d, rss: rss, nodes: nodes, eventsOf: eventsOf, now: now}, scan, isOurs)
}

// fileEntry refiles a pod's entry from its old controlling owner to its
// current one (pe nil: the pod is gone).
func (c *Cluster) fileEntry(old types.UID, hadOld bool, cur types.UID, hasCur bool, key string, pe *podEntry) {
	if hadOld && (!hasCur || old != cur || pe == nil) {
		if set := c.entriesByOwner[old]; set != nil {
			set.remove(key)
			if len(set.list) == 0 {
				delete(c.entriesByOwner, old)
			}
		}
	}
	if hasCur && pe != nil {
		set := c.entriesByOwner[cur]
		if set == nil {
			set = &entrySet{at: map[string]int{}}
			c.entriesByOwner[cur] = set
		}
		set.put(key, pe)
	}
}

// entrySet is one owner's pod entries in a slice, which the blocker walks
// far faster than a map, with each key's place for O(1) updates.
type entrySet struct {
	list []*podEntry
	keys []string
	at   map[string]int
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

func (s *entrySet) put(key string, pe *podEntry) {
	if i, ok := s.at[key]; ok {
		s.count(s.list[i], -1)
		s.count(pe, 1)
		s.list[i] = pe
		return
	}
	s.count(pe, 1)
	s.at[key] = len(s.list)
	s.list = append(s.list, pe)
	s.keys = append(s.keys, key)
}

func (s *entrySet) remove(key string) {
	i, ok := s.at[key]
	if !ok {
		return
	}
	s.count(s.list[i], -1)
	last := len(s.list) - 1
	s.list[i], s.keys[i] = s.list[last], s.keys[last]
	s.at[s.keys[i]] = i
	s.list[last], s.keys[last] = nil, ""
	s.list, s.keys = s.list[:last], s.keys[:last]
	delete(s.at, key)
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
	return c.blocker(d, c.ownedReplicaSets(d), now)
}
