package replicaset

import (
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
	byOwner map[types.UID][]ownedPod
	byPod   map[podRef]slot
	// selectors numbers each selector (its String form) a sync asked with,
	// from 1: the match fields hold these numbers, 0 for none. It grows by
	// one short string per ReplicaSet template ever synced.
	selectors map[string]int32
}

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
	pod       *corev1.Pod
	namespace string
	active    bool
	facts     podFacts
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
	return &ownedIndex{byOwner: map[types.UID][]ownedPod{}, byPod: map[podRef]slot{}, selectors: map[string]int32{}}
}

func entryFor(p *corev1.Pod) ownedPod {
	return ownedPod{pod: p, namespace: p.Namespace, active: model.IsPodActive(p), facts: factsOf(p)}
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
		// Most updates are status writes: the entry stays where it is.
		x.byOwner[s.owner][s.at] = entryFor(p)
		return
	}
	x.removeLocked(key)
	if ref == nil {
		return
	}
	x.byPod[key] = slot{owner: ref.UID, at: len(x.byOwner[ref.UID])}
	x.byOwner[ref.UID] = append(x.byOwner[ref.UID], entryFor(p))
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
	pods := x.byOwner[s.owner]
	last := len(pods) - 1
	if s.at != last {
		// The last entry fills the gap.
		pods[s.at] = pods[last]
		moved := pods[s.at].pod
		x.byPod[podRef{moved.Namespace, moved.Name}] = s
	}
	pods[last] = ownedPod{}
	if last == 0 {
		delete(x.byOwner, s.owner)
	} else {
		x.byOwner[s.owner] = pods[:last]
	}
}

// podsOf calls f for every pod in namespace whose controller has uid (only
// the active ones when activeOnly), with whether sel matches its labels and
// what its status counts: whether template (when not nil) matches them too,
// and its readiness. The order is unspecified, as the lister index's is.
func (x *ownedIndex) podsOf(uid types.UID, namespace string, sel labelMatcher, template *labelMatcher, activeOnly bool, f func(p *corev1.Pod, matches bool, facts podFacts)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	selID, templateID := x.selectorID(&sel), int32(0)
	if template != nil {
		templateID = x.selectorID(template)
	}
	pods := x.byOwner[uid]
	for i := range pods {
		e := &pods[i]
		if e.namespace != namespace || (activeOnly && !e.active) {
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
		f(e.pod, e.match, facts)
	}
}

// count is how many pods are filed under uid.
func (x *ownedIndex) count(uid types.UID) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.byOwner[uid])
}
