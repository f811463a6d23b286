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
	mu sync.Mutex
	// kind is the owner kind filed: the ReplicaSet and ReplicationController
	// controllers both see every pod event, and a pod controlled by another
	// kind can never be one of theirs (an owner's pods are found by its UID),
	// so each files only its own kind's pods, as upstream's managers drop
	// such a pod at its kind before resolving it. Filing every controlled
	// pod twice was a twelfth of a 100,000-replica rehearsal.
	kind    string
	byOwner map[types.UID]*ownerPods
	byPod   map[podRef]slot
	// selectors numbers each selector (its String form) a sync asked with,
	// from 1: the match fields hold these numbers, 0 for none. It grows by
	// one short string per ReplicaSet template ever synced. matchers[n-1]
	// is selector n, for matching pods as they change.
	selectors map[string]int32
	matchers  []labelMatcher
	// namespaces numbers the namespaces pods were seen in.
	namespaces map[string]int32
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
	uid     types.UID
	entries []ownedPod
	holes   int
	// byName: the pods of entries are in name order.
	byName bool
	// tally counts what a sync with the selectors and namespace of
	// tallied would claim of these pods, kept as pods change so that a
	// sync that neither scales down nor releases reads its status counts
	// instead of walking every pod (tallied.sel is 0 until a sync asks).
	tallied talliedFor
	tally   podTally
}

// talliedFor names what a tally counts for: the selector and template
// label numbers (ownedIndex.selectors) and the namespace number.
type talliedFor struct{ sel, template, namespace int32 }

// podTally is what a ReplicaSet's status counts of the pods it controls.
type podTally struct {
	active   int32 // active pods in the owner's namespace
	claimed  int32 // of those, the ones its selector matches: status.replicas
	labelled int32 // of those, the ones with every template label
	ready    int32 // of those, the ready ones
}

func (t *podTally) add(d podTally, sign int32) {
	t.active += sign * d.active
	t.claimed += sign * d.claimed
	t.labelled += sign * d.labelled
	t.ready += sign * d.ready
}

// live is how many pods are filed.
func (o *ownerPods) live() int { return len(o.entries) - o.holes }

// slot is where a pod's entry is.
type slot struct {
	owner *ownerPods
	at    int32
}

// podRef names a pod without building a "namespace/name" string.
type podRef struct{ namespace, name string }

// ownedPod is one pod as last seen; it is overwritten on every update, and
// match and matchFor are set by the syncs that read it, all under the
// index's lock. It is kept small (a 100,000-pod ReplicaSet holds as many):
// readiness, ready time and creation time are read from victim.
type ownedPod struct {
	pod *corev1.Pod // nil in a hole
	// victim is what a scale-down's ranking reads of the pod but its rank
	// and the age buckets of its times, which depend on the moment of the
	// sync.
	victim victimKey
	// node numbers the pod's node name (see ownedIndex.nodes), namespace
	// its namespace (ownedIndex.namespaces).
	node, namespace int32
	// matchFor is the selector match was computed for; 0 when it has not
	// been computed since the pod last changed. labelledFor and labelled
	// are the same for the owner's template labels: whether the pod counts
	// as fully labelled.
	matchFor, labelledFor int32
	active, match         bool
	labelled              bool
}

// facts is what the status counts of the pod (but its labels).
func (e *ownedPod) facts() podFacts {
	return podFacts{ready: e.victim.ready, readySince: e.victim.readySince.time()}
}

// counts is what e adds to a tally for t.
func (e *ownedPod) counts(t talliedFor) podTally {
	if e.pod == nil || !e.active || e.namespace != t.namespace {
		return podTally{}
	}
	d := podTally{active: 1}
	if e.matchFor == t.sel && e.match {
		d.claimed = 1
		if e.labelledFor == t.template && e.labelled {
			d.labelled = 1
		}
		if e.victim.ready {
			d.ready = 1
		}
	}
	return d
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

func newOwnedIndex(kind string) *ownedIndex {
	return &ownedIndex{kind: kind, byOwner: map[types.UID]*ownerPods{}, byPod: map[podRef]slot{}, selectors: map[string]int32{}, nodes: map[string]int32{}, namespaces: map[string]int32{}}
}

// entryFor works out what the syncs read of p, filed under o: matched
// at once against the selectors o's tally counts for. The caller holds x.mu.
func (x *ownedIndex) entryFor(p *corev1.Pod, o *ownerPods) ownedPod {
	e := ownedPod{
		pod: p, active: model.IsPodActive(p),
		node:      x.nodeIDLocked(p.Spec.NodeName),
		namespace: x.namespaceIDLocked(p.Namespace),
		victim:    staticVictimKey(p, factsOf(p)),
	}
	x.matchLocked(&e, o.tallied)
	return e
}

// matchLocked matches e against the selectors of t (none when t.sel is 0).
// The caller holds x.mu.
func (x *ownedIndex) matchLocked(e *ownedPod, t talliedFor) {
	if t.sel == 0 || e.pod == nil {
		return
	}
	if e.matchFor != t.sel {
		e.match, e.matchFor = x.matchers[t.sel-1].Matches(e.pod.Labels), t.sel
	}
	if e.labelledFor != t.template {
		e.labelled, e.labelledFor = x.matchers[t.template-1].Matches(e.pod.Labels), t.template
	}
}

// namespaceIDLocked numbers a namespace. The caller holds x.mu.
func (x *ownedIndex) namespaceIDLocked(name string) int32 { return numberOf(x.namespaces, name) }

// nodeIDLocked numbers a node name. The caller holds x.mu.
func (x *ownedIndex) nodeIDLocked(name string) int32 { return numberOf(x.nodes, name) }

// numberOf is name's number in numbers, the next one when it has none yet.
func numberOf(numbers map[string]int32, name string) int32 {
	id, ok := numbers[name]
	if !ok {
		id = int32(len(numbers))
		numbers[name] = id
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
		x.matchers = append(x.matchers, *m)
	}
	return id
}

// observe files p (added or updated) under its controller, or nowhere if it
// has none of the index's kind.
func (x *ownedIndex) observe(p *corev1.Pod) {
	key := podRef{p.Namespace, p.Name}
	ref := metav1.GetControllerOfNoCopy(p)
	if ref != nil && ref.Kind != x.kind {
		ref = nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if s, ok := x.byPod[key]; ok && ref != nil && s.owner.uid == ref.UID {
		// Most updates are status writes: the entry stays where it is, and
		// so does the name order.
		o, e := s.owner, &s.owner.entries[s.at]
		o.tally.add(e.counts(o.tallied), -1)
		*e = x.entryFor(p, o)
		o.tally.add(e.counts(o.tallied), 1)
		return
	}
	x.removeLocked(key)
	if ref == nil {
		return
	}
	o := x.byOwner[ref.UID]
	if o == nil {
		o = &ownerPods{uid: ref.UID, byName: true}
		x.byOwner[ref.UID] = o
	}
	if n := len(o.entries); n > 0 && (o.entries[n-1].pod == nil || o.entries[n-1].pod.Name > p.Name) {
		o.byName = false
	}
	x.byPod[key] = slot{owner: o, at: int32(len(o.entries))}
	o.entries = append(o.entries, x.entryFor(p, o))
	o.tally.add(o.entries[len(o.entries)-1].counts(o.tallied), 1)
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
	o := s.owner
	o.tally.add(o.entries[s.at].counts(o.tallied), -1)
	o.entries[s.at] = ownedPod{}
	o.holes++
	switch {
	case o.live() == 0:
		delete(x.byOwner, o.uid)
	case o.holes > 16 && o.holes*2 > len(o.entries):
		x.compactLocked(o)
	}
}

// compactLocked closes o's holes, keeping the order of its pods.
func (x *ownedIndex) compactLocked(o *ownerPods) {
	kept := o.entries[:0]
	for i, e := range o.entries {
		if e.pod == nil {
			continue
		}
		if i != len(kept) {
			x.byPod[podRef{e.pod.Namespace, e.pod.Name}] = slot{owner: o, at: int32(len(kept))}
		}
		kept = append(kept, e)
	}
	clear(o.entries[len(kept):])
	o.entries, o.holes = kept, 0
	if cap(o.entries) > 2*len(o.entries)+64 {
		// A ReplicaSet scaled down keeps no room for the pods it had.
		o.entries = slices.Clip(o.entries)
		o.entries = append([]ownedPod(nil), o.entries...)
	}
}

// sortByNameLocked puts o's pods in name order, once after pods were added
// out of it.
func (x *ownedIndex) sortByNameLocked(o *ownerPods) {
	if o.byName {
		return
	}
	x.compactLocked(o)
	slices.SortFunc(o.entries, func(a, b ownedPod) int { return strings.Compare(a.pod.Name, b.pod.Name) })
	for i, e := range o.entries {
		x.byPod[podRef{e.pod.Namespace, e.pod.Name}] = slot{owner: o, at: int32(i)}
	}
	o.byName = true
}

// tallied is the tally of uid's pods for a sync in namespace with sel and
// template, counted again from every pod only when these are not what it
// was counting (a new selector or template: rare).
func (x *ownedIndex) tallied(uid types.UID, namespace string, sel, template labelMatcher) podTally {
	x.mu.Lock()
	defer x.mu.Unlock()
	want := talliedFor{sel: x.selectorID(&sel), template: x.selectorID(&template), namespace: x.namespaceIDLocked(namespace)}
	o := x.byOwner[uid]
	if o == nil {
		return podTally{}
	}
	if o.tallied != want {
		o.tallied, o.tally = want, podTally{}
		for i := range o.entries {
			e := &o.entries[i]
			x.matchLocked(e, want)
			o.tally.add(e.counts(want), 1)
		}
	}
	return o.tally
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
		x.sortByNameLocked(o)
	}
	ns := x.namespaceIDLocked(namespace)
	// A match is kept on the entry unless the owner's tally counts for
	// another selector: the tally reads the kept matches.
	keepMatch := o.tallied.sel == 0 || o.tallied.sel == selID
	keepLabelled := o.tallied.sel == 0 || o.tallied.template == templateID
	pods := o.entries
	for i := range pods {
		e := &pods[i]
		if e.pod == nil || e.namespace != ns || (activeOnly && !e.active) {
			continue
		}
		match := e.match
		if e.matchFor != selID {
			match = sel.Matches(e.pod.Labels)
			if keepMatch {
				e.match, e.matchFor = match, selID
			}
		}
		facts := e.facts()
		if template != nil {
			labelled := e.labelled
			if e.labelledFor != templateID {
				labelled = template.Matches(e.pod.Labels)
				if keepLabelled {
					e.labelled, e.labelledFor = labelled, templateID
				}
			}
			facts.fullyLabeled = labelled
		}
		f(e, match, facts)
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
