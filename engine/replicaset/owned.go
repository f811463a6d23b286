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
// conditions of ten thousand unchanged pods. Each owner's pods are kept in a
// slice, so that a sync's pass over them reads memory in order instead of
// walking a map.
type ownedIndex struct {
	mu      sync.Mutex
	byOwner map[types.UID][]*ownedPod
	byPod   map[podRef]*ownedPod
}

// podRef names a pod without building a "namespace/name" string.
type podRef struct{ namespace, name string }

// ownedPod is one pod as last seen; it is overwritten on every update, and
// match and matchFor are set by the syncs that read it, all under the
// index's lock.
type ownedPod struct {
	pod    *corev1.Pod
	owner  types.UID
	at     int // position in byOwner[owner]
	active bool
	facts  podFacts
	// matchFor is the selector (its String form) match was computed for;
	// "" when it has not been computed since the pod last changed.
	matchFor string
	match    bool
	// labelledFor and labelled are the same for the owner's template
	// labels: whether the pod counts as fully labelled.
	labelledFor string
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
	return &ownedIndex{byOwner: map[types.UID][]*ownedPod{}, byPod: map[podRef]*ownedPod{}}
}

func (e *ownedPod) see(p *corev1.Pod) {
	e.pod, e.active, e.facts = p, model.IsPodActive(p), factsOf(p)
	e.matchFor, e.match = "", false
	e.labelledFor, e.labelled = "", false
}

// observe files p (added or updated) under its controller, or nowhere if it
// has none.
func (x *ownedIndex) observe(p *corev1.Pod) {
	key := podRef{p.Namespace, p.Name}
	ref := metav1.GetControllerOfNoCopy(p)
	x.mu.Lock()
	defer x.mu.Unlock()
	if e := x.byPod[key]; e != nil && ref != nil && e.owner == ref.UID {
		// Most updates are status writes: the entry stays where it is.
		e.see(p)
		return
	}
	x.removeLocked(key)
	if ref == nil {
		return
	}
	e := &ownedPod{owner: ref.UID, at: len(x.byOwner[ref.UID])}
	e.see(p)
	x.byOwner[ref.UID] = append(x.byOwner[ref.UID], e)
	x.byPod[key] = e
}

// remove forgets a pod that is gone from the cache.
func (x *ownedIndex) remove(p *corev1.Pod) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(podRef{p.Namespace, p.Name})
}

func (x *ownedIndex) removeLocked(key podRef) {
	e, ok := x.byPod[key]
	if !ok {
		return
	}
	delete(x.byPod, key)
	pods := x.byOwner[e.owner]
	last := len(pods) - 1
	pods[e.at] = pods[last]
	pods[e.at].at = e.at
	pods[last] = nil
	if last == 0 {
		delete(x.byOwner, e.owner)
	} else {
		x.byOwner[e.owner] = pods[:last]
	}
}

// podsOf calls f for every pod in namespace whose controller has uid (only
// the active ones when activeOnly), with whether sel matches its labels and
// what its status counts: whether template (when not nil) matches them too,
// and its readiness. The order is unspecified, as the lister index's is.
func (x *ownedIndex) podsOf(uid types.UID, namespace string, sel labelMatcher, template *labelMatcher, activeOnly bool, f func(p *corev1.Pod, matches bool, facts podFacts)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, e := range x.byOwner[uid] {
		if e.pod.Namespace != namespace || (activeOnly && !e.active) {
			continue
		}
		if e.matchFor == "" || e.matchFor != sel.key {
			e.match = sel.Matches(e.pod.Labels)
			e.matchFor = sel.key
		}
		facts := e.facts
		if template != nil {
			if e.labelledFor == "" || e.labelledFor != template.key {
				e.labelled = template.Matches(e.pod.Labels)
				e.labelledFor = template.key
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
