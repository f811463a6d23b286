package replicaset

import (
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// ownedIndex files every pod that has a controller under that controller's
// UID, as the pod event handlers see it: the same objects the pod lister
// holds, since a runner updates its cache before it calls the handlers. It
// answers what the lister's controller-uid index answers, without copying
// the index's keys into a fresh slice and looking each one up on every sync,
// and it remembers per pod what a sync would otherwise work out again for
// every pod of a ReplicaSet on every sync: whether the pod is active, whether
// and since when it is ready, and whether its labels match its owner's
// selector. All are worked out once per pod update (the match lazily, for the
// selector a sync asks with), so a sync no longer reads the labels and
// conditions of ten thousand unchanged pods. Each owner's pods are kept by
// value in a slice, with the selectors they were matched against as small
// numbers, so that a sync's pass over them reads memory in order and
// compares integers, instead of walking a map, following a pointer per pod
// and comparing selector strings.
type ownedIndex struct {
	mu      sync.Mutex
	byOwner map[types.UID]*ownerPods
	byPod   map[podRef]slot
	// selectors numbers each selector (its String form) a sync asked with,
	// from 1: the match fields hold these numbers, 0 for none. It grows by
	// one short string per ReplicaSet template ever synced.
	selectors map[string]int32
	// nodes numbers the node names pods were seen on, so that a scale-down
	// counts pods per node in a slice instead of hashing a name per pod. It
	// grows by one name per node ever seen.
	nodes map[string]int32
}

// ownerPods are the pods filed under one owner. A removed pod leaves a
// hole (an entry without a pod) until holes are half the slice, so that
// removing keeps the others in order: a ReplicaSet scaling down only loses
// pods, and its pods, once put in name order, stay in it for every
// following scale-down sync.
type ownerPods struct {
	entries []ownedPod
	holes   int
	// byName: the pods of entries are in name order.
	byName bool
}

// live is how many pods are filed.
func (o *ownerPods) live() int { return len(o.entries) - o.holes }

// slot is where a pod's entry is.
type slot struct {
	owner types.UID
	at    int
}

// podRef names a pod without building a "namespace/name" string.
type podRef struct{ namespace, name string }

// ownedPod is one pod as last seen; it is overwritten on every update, and
// match and matchFor are set by the syncs that read it, all under the
// index's lock.
type ownedPod struct {
	pod       *corev1.Pod // nil in a hole
	namespace string
	active    bool
	facts     podFacts
	// node numbers the pod's node name (see ownedIndex.nodes).
	node int32
	// victim is what a scale-down's ranking reads of the pod but its rank
	// and the age buckets of its times, which depend on the moment of the
	// sync; created is the creation time those buckets are taken of.
	victim  victimKey
	created time.Time
	// matchFor is the selector match was computed for; 0 when it has not
	// been computed since the pod last changed.
	matchFor int32
	match    bool
	// labelledFor and labelled are the same for the owner's template
	// labels: whether the pod counts as fully labelled.
	labelledFor int32
	labelled    bool
}

// podFacts is what a ReplicaSet's status counts of a pod.
type podFacts struct {
	ready bool
	// readySince is when the Ready condition last turned True; zero when
	// the pod is not ready.
	readySince time.Time
	// fullyLabeled: the pod has every label of its owner's template (only
	// set by podsOf when it is given the template's labels).
	fullyLabeled bool
}

func factsOf(p *corev1.Pod) podFacts {
	c := model.PodCondition(&p.Status, corev1.PodReady)
	if c == nil || c.Status != corev1.ConditionTrue {
		return podFacts{}
	}
	return podFacts{ready: true, readySince: c.LastTransitionTime.Time}
}

// available is model.IsPodAvailable from the facts.
func (f podFacts) available(minReadySeconds int32, now time.Time) bool {
	if !f.ready {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	return !f.readySince.IsZero() && f.readySince.Add(time.Duration(minReadySeconds)*time.Second).Before(now)
}

func newOwnedIndex() *ownedIndex {
	return &ownedIndex{byOwner: map[types.UID]*ownerPods{}, byPod: map[podRef]slot{}, selectors: map[string]int32{}, nodes: map[string]int32{}}
}

// entryFor works out what the syncs read of p. The caller holds x.mu.
func (x *ownedIndex) entryFor(p *corev1.Pod) ownedPod {
	facts := factsOf(p)
	return ownedPod{
		pod: p, namespace: p.Namespace, active: model.IsPodActive(p), facts: facts,
		node:    x.nodeIDLocked(p.Spec.NodeName),
		victim:  staticVictimKey(p, facts),
		created: p.CreationTimestamp.Time,
	}
}

// nodeIDLocked numbers a node name. The caller holds x.mu.
func (x *ownedIndex) nodeIDLocked(name string) int32 {
	id, ok := x.nodes[name]
	if !ok {
		id = int32(len(x.nodes))
		x.nodes[name] = id
	}
	return id
}

// nodeID numbers a node name.
func (x *ownedIndex) nodeID(name string) int32 {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.nodeIDLocked(name)
}

// nodeCount is how many node names are numbered: every number is below it.
func (x *ownedIndex) nodeCount() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.nodes)
}

// selectorID numbers m's selector. The caller holds x.mu.
func (x *ownedIndex) selectorID(m *labelMatcher) int32 {
	id, ok := x.selectors[m.key]
	if !ok {
		id = int32(len(x.selectors) + 1)
		x.selectors[m.key] = id
	}
	return id
}

// observe files p (added or updated) under its controller, or nowhere if it
// has none.
func (x *ownedIndex) observe(p *corev1.Pod) {
	key := podRef{p.Namespace, p.Name}
	ref := metav1.GetControllerOfNoCopy(p)
	x.mu.Lock()
	defer x.mu.Unlock()
	if s, ok := x.byPod[key]; ok && ref != nil && s.owner == ref.UID {
		// Most updates are status writes: the entry stays where it is, and
		// so does the name order.
		x.byOwner[s.owner].entries[s.at] = x.entryFor(p)
		return
	}
	x.removeLocked(key)
	if ref == nil {
		return
	}
	o := x.byOwner[ref.UID]
	if o == nil {
		o = &ownerPods{byName: true}
		x.byOwner[ref.UID] = o
	}
	if n := len(o.entries); n > 0 && (o.entries[n-1].pod == nil || o.entries[n-1].pod.Name > p.Name) {
		o.byName = false
	}
	x.byPod[key] = slot{owner: ref.UID, at: len(o.entries)}
	o.entries = append(o.entries, x.entryFor(p))
}

// remove forgets a pod that is gone from the cache.
func (x *ownedIndex) remove(p *corev1.Pod) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(podRef{p.Namespace, p.Name})
}

func (x *ownedIndex) removeLocked(key podRef) {
	s, ok := x.byPod[key]
	if !ok {
		return
	}
	delete(x.byPod, key)
	o := x.byOwner[s.owner]
	o.entries[s.at] = ownedPod{}
	o.holes++
	switch {
	case o.live() == 0:
		delete(x.byOwner, s.owner)
	case o.holes > 16 && o.holes*2 > len(o.entries):
		x.compactLocked(s.owner, o)
	}
}

// compactLocked closes o's holes, keeping the order of its pods.
func (x *ownedIndex) compactLocked(uid types.UID, o *ownerPods) {
	kept := o.entries[:0]
	for i, e := range o.entries {
		if e.pod == nil {
			continue
		}
		if i != len(kept) {
			x.byPod[podRef{e.namespace, e.pod.Name}] = slot{owner: uid, at: len(kept)}
		}
		kept = append(kept, e)
	}
	clear(o.entries[len(kept):])
	o.entries, o.holes = kept, 0
}

// sortByNameLocked puts o's pods in name order, once after pods were added
// out of it.
func (x *ownedIndex) sortByNameLocked(uid types.UID, o *ownerPods) {
	if o.byName {
		return
	}
	x.compactLocked(uid, o)
	slices.SortFunc(o.entries, func(a, b ownedPod) int { return strings.Compare(a.pod.Name, b.pod.Name) })
	for i, e := range o.entries {
		x.byPod[podRef{e.namespace, e.pod.Name}] = slot{owner: uid, at: i}
	}
	o.byName = true
}

// podsOf calls f for every pod in namespace whose controller has uid (only
// the active ones when activeOnly), with whether sel matches its labels and
// what its status counts: whether template (when not nil) matches them too,
// and its readiness. f is called under the index's lock and must not keep e.
// The pods come in name order when byName, in an unspecified order (as the
// lister index's) otherwise.
func (x *ownedIndex) podsOf(uid types.UID, namespace string, sel labelMatcher, template *labelMatcher, activeOnly, byName bool, f func(e *ownedPod, matches bool, facts podFacts)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	selID, templateID := x.selectorID(&sel), int32(0)
	if template != nil {
		templateID = x.selectorID(template)
	}
	o := x.byOwner[uid]
	if o == nil {
		return
	}
	if byName {
		x.sortByNameLocked(uid, o)
	}
	pods := o.entries
	for i := range pods {
		e := &pods[i]
		if e.pod == nil || e.namespace != namespace || (activeOnly && !e.active) {
			continue
		}
		if e.matchFor != selID {
			e.match = sel.Matches(e.pod.Labels)
			e.matchFor = selID
		}
		facts := e.facts
		if template != nil {
			if e.labelledFor != templateID {
				e.labelled = template.Matches(e.pod.Labels)
				e.labelledFor = templateID
			}
			facts.fullyLabeled = e.labelled
		}
		f(e, e.match, facts)
	}
}

// count is how many pods are filed under uid.
func (x *ownedIndex) count(uid types.UID) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	if o := x.byOwner[uid]; o != nil {
		return o.live()
	}
	return 0
}
