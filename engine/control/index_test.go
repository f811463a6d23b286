package control

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
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
