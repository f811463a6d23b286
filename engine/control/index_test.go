package control

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/model"
)

func TestDeletedReadsObjectsAndTombstones(t *testing.T) {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}
	for name, obj := range map[string]any{
		"the object":  p,
		"a tombstone": cache.DeletedFinalStateUnknown{Key: "default/p", Obj: p},
	} {
		if got, ok := Deleted[*corev1.Pod](obj); !ok || got != p {
			t.Errorf("%s: Deleted = %v, %v; want the pod", name, got, ok)
		}
	}
	if _, ok := Deleted[*corev1.Node](p); ok {
		t.Error("a pod was read as a node")
	}
	if _, ok := Deleted[*corev1.Pod](cache.DeletedFinalStateUnknown{Key: "x"}); ok {
		t.Error("an empty tombstone was read as a pod")
	}
}

func TestControllerIndexFilesOrphansTogether(t *testing.T) {
	yes := true
	owned := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", OwnerReferences: []metav1.OwnerReference{{UID: "rs-1", Controller: &yes}}}}
	orphan := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "b"}}
	if got, _ := ControllerUIDIndexFunc(owned); len(got) != 1 || got[0] != "rs-1" {
		t.Errorf("owned pod indexed under %v, want [rs-1]", got)
	}
	if got, _ := ControllerUIDIndexFunc(orphan); len(got) != 1 || got[0] != Orphan {
		t.Errorf("orphan indexed under %v, want [%q]", got, Orphan)
	}
}

// A cache that files objects by SingleValue must file them where the index
// function would: the same one value, or — when SingleValue says false — ask
// the function, whatever the object.
func TestSingleValueFilesAsTheIndexFunction(t *testing.T) {
	yes := true
	objects := []any{
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a", OwnerReferences: []metav1.OwnerReference{{UID: "rs-1", Controller: &yes}}}, Spec: corev1.PodSpec{NodeName: "n1"}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "orphan"}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
		&metav1.ObjectMeta{Namespace: "ns"}, // what listers hand Index
		"no metadata",
	}
	seen := 0
	for _, kind := range AllKinds {
		for name, fn := range Indexers(kind) {
			one := SingleValue(name, fn)
			if one == nil {
				if kind == Pods {
					t.Errorf("pod index %q, asked on every pod write, has no one-value form", name)
				}
				continue
			}
			seen++
			for _, obj := range objects {
				want, _ := fn(obj)
				if v, ok := one(obj); ok && (len(want) != 1 || want[0] != v) {
					t.Errorf("%s index %q of %#v: one value %q, function %q", kind, name, obj, v, want)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no index checked")
	}
	if SingleValue(IndexByNode, func(any) ([]string, error) { return []string{"x", "y"}, nil }) != nil {
		t.Error("a function that is not the registered one was given a one-value form")
	}
}

// The canary and disruption controllers drop a pod change when NoneIn says
// there is nothing to look up: it must never say so while there is.
func TestNoneInSaysNothingIsThereOnlyWhenNothingIs(t *testing.T) {
	if NoneIn(nil, IndexCanaries, Canary) {
		t.Error("no index at all was taken for an empty one")
	}
	ix := cache.NewIndexer(cache.MetaNamespaceKeyFunc, Indexers(Deployments))
	plain := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "plain"}}
	_ = ix.Add(plain)
	if !NoneIn(ix, IndexCanaries, Canary) {
		t.Error("a Deployment without a canary was filed as one")
	}
	if NoneIn(ix, cache.NamespaceIndex, "ns") || !NoneIn(ix, cache.NamespaceIndex, "other") {
		t.Error("the namespace index was misread")
	}
	canary := plain.DeepCopy()
	canary.Name, canary.Annotations = "canary", map[string]string{model.CanaryAnnotation + "-plan": "{}"}
	_ = ix.Add(canary)
	if NoneIn(ix, IndexCanaries, Canary) {
		t.Error("a Deployment with canary annotations was not seen")
	}
	_ = ix.Delete(canary)
	if !NoneIn(ix, IndexCanaries, Canary) {
		t.Error("a deleted canary is still seen")
	}
	if NoneIn(ix, "no such index", "x") {
		t.Error("an index that does not exist was taken for an empty one")
	}
}
