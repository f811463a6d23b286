package cluster

import (
	"maps"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// index maps a key (an owner's UID, a node name, an involved object) to the
// "namespace/name" keys of the objects filed under it. Empty sets are
// dropped, so the index holds nothing for objects that are gone.
type index[K comparable] map[K]map[string]struct{}

func (ix index[K]) add(k K, name string) {
	set := ix[k]
	if set == nil {
		set = map[string]struct{}{}
		ix[k] = set
	}
	set[name] = struct{}{}
}

func (ix index[K]) remove(k K, name string) {
	set := ix[k]
	if set == nil {
		return
	}
	delete(set, name)
	if len(set) == 0 {
		delete(ix, k)
	}
}

// move refiles name from old to cur; has says whether each key applies.
func (ix index[K]) move(old K, hadOld bool, cur K, hasCur bool, name string) {
	if hadOld == hasCur && old == cur {
		return
	}
	if hadOld {
		ix.remove(old, name)
	}
	if hasCur {
		ix.add(cur, name)
	}
}

// sorted lists the names filed under k in order.
func (ix index[K]) sorted(k K) []string {
	return slices.Sorted(maps.Keys(ix[k]))
}

// objectKey is the "namespace/name" an object is stored under.
func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// controllerOf is the object's controlling owner reference, or nil: the one
// a controller adopts it through, which kubectl and the controllers select by.
func controllerOf(obj metav1.Object) *metav1.OwnerReference {
	refs := obj.GetOwnerReferences()
	for i := range refs {
		if refs[i].Controller != nil && *refs[i].Controller {
			return &refs[i]
		}
	}
	return nil
}

// sameResourceVersion reports whether cur is the version already held, so
// that a re-delivered object costs nothing. Objects without a
// resourceVersion (never stored by an API server) always count as new.
func sameResourceVersion(old, cur metav1.Object) bool {
	return old.GetResourceVersion() != "" && old.GetResourceVersion() == cur.GetResourceVersion()
}
