package memapi

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/model/eventpack"
)

// objectKey names a stored object within its resource.
type objectKey struct{ namespace, name string }

func compareKeys(a, b objectKey) int {
	return cmp.Or(cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
}

// table holds the objects of one resource. Stored objects are never modified
// once committed: a write stores a new object, so an object handed to a
// subscriber or queued for a watcher stays valid and unchanged.
type table struct {
	kind    *kind
	objects map[objectKey]runtime.Object
	// events holds, in the events table only, the events that pack
	// (model/eventpack): a run keeps every event it records, as upstream
	// keeps them for an hour, and a packed one is a fifth of the bytes and
	// a third of the objects for the collector to mark. Readers get a new
	// Event, equal to the one committed (at); watchers and subscribers got
	// the committed one itself.
	events   map[objectKey]eventpack.Packed
	packer   eventpack.Packer
	history  history
	watchers map[*watcher]struct{}
}

func newTable(k *kind, historyLimit int) *table {
	t := &table{
		kind:     k,
		objects:  map[objectKey]runtime.Object{},
		history:  history{limit: historyLimit},
		watchers: map[*watcher]struct{}{},
	}
	if k.gvr == eventsResource {
		t.events = map[objectKey]eventpack.Packed{}
	}
	return t
}

// get returns the stored object (shared, read-only) or nil.
func (t *table) get(namespace, name string) runtime.Object {
	if !t.kind.namespaced {
		namespace = ""
	}
	return t.at(objectKey{namespace, name})
}

// at returns the object stored under key (read-only) or nil: a packed
// event is read back as a new Event.
func (t *table) at(key objectKey) runtime.Object {
	if obj := t.objects[key]; obj != nil {
		return obj
	}
	if p, ok := t.events[key]; ok {
		return p.Event(key.name)
	}
	return nil
}

// put stores obj under key, packed when it is an event that packs.
func (t *table) put(key objectKey, obj runtime.Object) {
	if t.events != nil {
		if e, ok := obj.(*corev1.Event); ok {
			if p, ok := t.packer.Pack(e); ok {
				t.events[key] = p
				delete(t.objects, key)
				return
			}
		}
		delete(t.events, key)
	}
	t.objects[key] = obj
}

// drop removes the object stored under key.
func (t *table) drop(key objectKey) {
	delete(t.objects, key)
	delete(t.events, key)
}

// sorted returns the stored objects of namespace ("" = all) in key order, the
// order the real server lists in.
func (t *table) sorted(namespace string) []runtime.Object {
	keys := make([]objectKey, 0, len(t.objects)+len(t.events))
	for k := range t.objects {
		if namespace == "" || k.namespace == namespace {
			keys = append(keys, k)
		}
	}
	for k := range t.events {
		if namespace == "" || k.namespace == namespace {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, compareKeys)
	out := make([]runtime.Object, len(keys))
	for i, k := range keys {
		out[i] = t.at(k)
	}
	return out
}

// metaOf returns the metadata of an API object. Every served kind has
// ObjectMeta, so the error path only guards against foreign objects.
func metaOf(obj runtime.Object) metav1.Object {
	m, err := meta.Accessor(obj)
	if err != nil {
		return &metav1.ObjectMeta{}
	}
	return m
}

func keyOf(m metav1.Object) objectKey { return objectKey{m.GetNamespace(), m.GetName()} }

// commit makes one change visible: it gives obj the next resourceVersion,
// stores or removes it, records it for watch replay, and tells watchers and
// subscribers, in that order. obj must be a new object that nobody else
// holds; from here on it belongs to the store and is never modified. prev is
// the stored object it replaces (nil for Added).
func (c *Cluster) commit(t *table, typ watch.EventType, obj, prev runtime.Object) {
	c.rv++
	m := metaOf(obj)
	toSeconds(obj, m, &c.last)
	m.SetResourceVersion(strconv.FormatUint(c.rv, 10))
	key := keyOf(m)
	switch typ {
	case watch.Deleted:
		t.drop(key)
		delete(c.live, string(m.GetUID()))
		delete(c.shared, string(m.GetUID()))
	case watch.Added:
		if p, ok := obj.(*corev1.Pod); ok {
			c.shareSpec(p)
		}
		t.put(key, obj)
		c.live[string(m.GetUID())] = struct{}{}
	default:
		t.put(key, obj) // same UID, same place: c.live is unchanged
	}
	if typ == watch.Deleted || !sameOwners(prev, obj) {
		c.owners.update(t.kind, key, prev, obj, typ == watch.Deleted)
	}

	ev := change{rv: c.rv, typ: typ, obj: obj, prev: prev}
	t.history.add(ev)
	for w := range t.watchers {
		w.offer(ev)
	}
	c.lastRV.Store(c.rv)
	c.notify(watch.Event{Type: typ, Object: obj}, prev)
}

// newVersion returns a new object that commit may store in place of stored
// with the metadata fields commit and deletion set (resourceVersion,
// whole-second timestamps, deletionTimestamp and grace period: fields of the
// struct itself, replaced, never written through). A pod's is a shallow
// copy whose status alone is deep-copied, since commit rewrites the status's
// times in place: its spec and its metadata's maps and slices are shared
// with the stored pod, which is never modified. Copying a pod's spec was most
// of the cost of binding and deleting pods. Other kinds are deep-copied.
func newVersion(stored runtime.Object) runtime.Object {
	if p, ok := stored.(*corev1.Pod); ok {
		next := *p
		p.Status.DeepCopyInto(&next.Status)
		return &next
	}
	return stored.DeepCopyObject()
}

// sameOwners reports whether obj has the very owner references prev had:
// the same slice, as a new version that shares its metadata's slices with
// the stored one (a status write, a bind) has. Its owners need no refiling.
func sameOwners(prev, obj runtime.Object) bool {
	if prev == nil {
		return false
	}
	a, b := metaOf(prev).GetOwnerReferences(), metaOf(obj).GetOwnerReferences()
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// change is one committed write, as kept for watchers.
type change struct {
	rv   uint64
	typ  watch.EventType
	obj  runtime.Object // the stored object; for Deleted, its final state
	prev runtime.Object // the object it replaced, nil for Added
}

// shareSpec lets a new pod hold the very containers, tolerations, volumes,
// spec defaults, labels, owner references and generateName of the last pod
// stored for the same controller when they are equal, as a ReplicaSet's
// pods, made from one template, are: the store's objects are never
// modified, so equal parts can be one. A 100,000-replica ReplicaSet's pods
// would otherwise hold 100,000 copies of its template's spec (about 1.3 KB
// each). It compares only with the last pod of the controller, so a changed
// template starts sharing anew with its first pod.
func (c *Cluster) shareSpec(p *corev1.Pod) {
	ref := metav1.GetControllerOfNoCopy(p)
	if ref == nil {
		return
	}
	prev := c.shared[string(ref.UID)]
	if prev == nil {
		c.shared[string(ref.UID)] = p
		return
	}
	shared := share(&p.Spec.Containers, prev.Spec.Containers)
	shared = share(&p.Spec.Tolerations, prev.Spec.Tolerations) && shared
	shared = share(&p.Spec.Volumes, prev.Spec.Volumes) && shared
	// The defaults every pod gets (its controller's template had them
	// filled in, and admission sets priority): small objects of their own
	// in each pod, for the garbage collector to visit, unless shared.
	shared = sharePointer(&p.Spec.TerminationGracePeriodSeconds, prev.Spec.TerminationGracePeriodSeconds) && shared
	shared = sharePointer(&p.Spec.SecurityContext, prev.Spec.SecurityContext) && shared
	shared = sharePointer(&p.Spec.EnableServiceLinks, prev.Spec.EnableServiceLinks) && shared
	shared = sharePointer(&p.Spec.Priority, prev.Spec.Priority) && shared
	shared = sharePointer(&p.Spec.PreemptionPolicy, prev.Spec.PreemptionPolicy) && shared
	// So is the metadata every pod of a controller has alike: its owner
	// references (a list and two flags each) and generated-name prefix.
	shared = share(&p.OwnerReferences, prev.OwnerReferences) && shared
	if p.GenerateName == prev.GenerateName {
		p.GenerateName = prev.GenerateName
	}
	if (p.Labels == nil) == (prev.Labels == nil) && maps.Equal(p.Labels, prev.Labels) {
		p.Labels = prev.Labels
	} else {
		shared = false
	}
	if !shared {
		c.shared[string(ref.UID)] = p
	}
}

// share makes *mine be theirs when the two are identical (reflect.DeepEqual:
// every field, a quantity's text and nil against empty included, so that
// nothing read or written of the pod changes) and reports whether they were.
func share[T any](mine *[]T, theirs []T) bool {
	if !reflect.DeepEqual(*mine, theirs) {
		return false
	}
	*mine = theirs
	return true
}

// sharePointer is share for a pointer field: *mine becomes theirs when both
// are nil or point to identical values.
func sharePointer[T any](mine **T, theirs *T) bool {
	if *mine == theirs {
		return true
	}
	if *mine == nil || theirs == nil || !reflect.DeepEqual(**mine, *theirs) {
		return false
	}
	*mine = theirs
	return true
}

// location names where an object is stored.
type location struct {
	resource schema.GroupVersionResource
	key      objectKey
}

// ownerIndex finds the dependents of an owner by its UID, for cascading
// deletion without scanning every object. A ReplicaSet's pods are all its
// dependents, so each is filed small: its kind by pointer, not its resource's
// three names.
type ownerIndex map[string]map[dependent]struct{}

// dependent is a location as the owner index files it.
type dependent struct {
	kind *kind
	key  objectKey
}

func (ix ownerIndex) update(k *kind, key objectKey, prev, obj runtime.Object, deleted bool) {
	d := dependent{k, key}
	if prev != nil {
		for _, ref := range metaOf(prev).GetOwnerReferences() {
			if set := ix[string(ref.UID)]; set != nil {
				delete(set, d)
				if len(set) == 0 {
					delete(ix, string(ref.UID))
				}
			}
		}
	}
	if deleted || obj == nil {
		return
	}
	for _, ref := range metaOf(obj).GetOwnerReferences() {
		set := ix[string(ref.UID)]
		if set == nil {
			set = map[dependent]struct{}{}
			ix[string(ref.UID)] = set
		}
		set[d] = struct{}{}
	}
}

// dependents returns the dependents of owner in a stable order.
func (ix ownerIndex) dependents(owner string) []location {
	out := make([]location, 0, len(ix[owner]))
	for d := range ix[owner] {
		out = append(out, location{d.kind.gvr, d.key})
	}
	slices.SortFunc(out, func(a, b location) int {
		return cmp.Or(cmp.Compare(a.resource.String(), b.resource.String()), compareKeys(a.key, b.key))
	})
	return out
}
