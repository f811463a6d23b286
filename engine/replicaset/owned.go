package replicaset

import (
	"sync"

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
// every pod of a ReplicaSet on every sync: whether the pod is active, and
// whether its labels match its owner's selector. Both are worked out once per
// pod update (the match lazily, for the selector a sync asks with), so a sync
// no longer reads the labels of ten thousand unchanged pods.
type ownedIndex struct {
	mu      sync.Mutex
	byOwner map[types.UID]map[string]*ownedPod // pod key → entry
	ownerOf map[string]types.UID               // pod key → the UID it is filed under
}

// ownedPod is one pod as last seen; it is overwritten on every update, and
// match and matchFor are set by the syncs that read it, all under the
// index's lock.
type ownedPod struct {
	pod       *corev1.Pod
	namespace string
	active    bool
	// matchFor is the selector (its String form) match was computed for;
	// "" when it has not been computed since the pod last changed.
	matchFor string
	match    bool
}

func newOwnedIndex() *ownedIndex {
	return &ownedIndex{byOwner: map[types.UID]map[string]*ownedPod{}, ownerOf: map[string]types.UID{}}
}

// observe files p (added or updated) under its controller, or nowhere if it
// has none.
func (x *ownedIndex) observe(p *corev1.Pod) {
	key := podKey(p)
	ref := metav1.GetControllerOfNoCopy(p)
	x.mu.Lock()
	defer x.mu.Unlock()
	if uid, filed := x.ownerOf[key]; filed && ref != nil && uid == ref.UID {
		// Most updates are status writes: the entry stays where it is.
		*x.byOwner[ref.UID][key] = ownedPod{pod: p, namespace: p.Namespace, active: model.IsPodActive(p)}
		return
	}
	x.removeLocked(key)
	if ref == nil {
		return
	}
	pods, ok := x.byOwner[ref.UID]
	if !ok {
		pods = map[string]*ownedPod{}
		x.byOwner[ref.UID] = pods
	}
	pods[key] = &ownedPod{pod: p, namespace: p.Namespace, active: model.IsPodActive(p)}
	x.ownerOf[key] = ref.UID
}

// remove forgets a pod that is gone from the cache.
func (x *ownedIndex) remove(p *corev1.Pod) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(podKey(p))
}

func (x *ownedIndex) removeLocked(key string) {
	uid, ok := x.ownerOf[key]
	if !ok {
		return
	}
	delete(x.ownerOf, key)
	if pods := x.byOwner[uid]; pods != nil {
		delete(pods, key)
		if len(pods) == 0 {
			delete(x.byOwner, uid)
		}
	}
}

// podsOf calls f for every pod in namespace whose controller has uid (only
// the active ones when activeOnly), with whether sel matches its labels.
// The order is unspecified, as the lister index's is.
func (x *ownedIndex) podsOf(uid types.UID, namespace string, sel labelMatcher, activeOnly bool, f func(p *corev1.Pod, matches bool)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, e := range x.byOwner[uid] {
		if e.namespace != namespace || (activeOnly && !e.active) {
			continue
		}
		if e.matchFor == "" || e.matchFor != sel.key {
			e.match = sel.Matches(e.pod.Labels)
			e.matchFor = sel.key
		}
		f(e.pod, e.match)
	}
}

// count is how many pods are filed under uid, for tests.
func (x *ownedIndex) count(uid types.UID) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.byOwner[uid])
}
