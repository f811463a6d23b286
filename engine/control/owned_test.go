package control

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
)

func TestOwnerKeyIsTheControllerOfThatKindOnly(t *testing.T) {
	yes := true
	pod := func(kind string, controller bool) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-0",
			OwnerReferences: []metav1.OwnerReference{{Kind: kind, Name: "web", Controller: &controller}}}}
	}
	for name, tc := range map[string]struct {
		obj  any
		want string
	}{
		"its controller":           {pod("StatefulSet", yes), "shop/web"},
		"a tombstone":              {cache.DeletedFinalStateUnknown{Key: "shop/web-0", Obj: pod("StatefulSet", yes)}, "shop/web"},
		"another kind's":           {pod("DaemonSet", yes), ""},
		"an owner, not controller": {pod("StatefulSet", false), ""},
		"not an object":            {"shop/web-0", ""},
		"an empty tombstone":       {cache.DeletedFinalStateUnknown{Key: "shop/web-0"}, ""},
	} {
		if got := OwnerKey(tc.obj, "StatefulSet"); got != tc.want {
			t.Errorf("%s: OwnerKey = %q, want %q", name, got, tc.want)
		}
	}
}

func TestOwnedPodsAndRevisionsAreTheOwnersInItsNamespace(t *testing.T) {
	yes := true
	owner := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", UID: "set-1"}}
	ref := []metav1.OwnerReference{{UID: "set-1", Controller: &yes}}
	pods := cache.NewIndexer(cache.MetaNamespaceKeyFunc, Indexers(Pods))
	for _, p := range []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-0", OwnerReferences: ref, Labels: map[string]string{"app": "web"}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1", OwnerReferences: ref, Labels: map[string]string{"app": "old"}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "web-0", OwnerReferences: ref, Labels: map[string]string{"app": "web"}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db-0", Labels: map[string]string{"app": "web"}}},
	} {
		if err := pods.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	revs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, Indexers(ControllerRevisions))
	for _, r := range []*appsv1.ControllerRevision{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-b", OwnerReferences: ref}, Revision: 2},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-a", OwnerReferences: ref}, Revision: 1},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "web-c", OwnerReferences: ref}, Revision: 3},
	} {
		if err := revs.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	l := Listers{PodIndex: pods, RevisionIndex: revs}
	got := l.OwnedPods(owner, labels.SelectorFromSet(labels.Set{"app": "web"}))
	if len(got) != 1 || got[0].Namespace != "shop" || got[0].Name != "web-0" {
		t.Errorf("owned pods %v, want shop/web-0 alone", got)
	}
	var names []string
	for _, r := range l.OwnedRevisions(owner) {
		names = append(names, r.Name)
	}
	if want := []string{"web-a", "web-b"}; !slices.Equal(names, want) {
		t.Errorf("owned revisions %v, want %v, oldest first", names, want)
	}
	if got := (Listers{}).OwnedRevisions(owner); got != nil {
		t.Errorf("without a revision cache: %v, want none", got)
	}
}

func TestNewRevisionIsOwnedAndKeepsTheTemplatesLabels(t *testing.T) {
	set := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", UID: types.UID("set-1"),
		Annotations: map[string]string{"note": "x"}}}
	template := map[string]string{"app": "web"}
	rev := NewRevision(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"), template, []byte(`{"spec":{}}`), 4)
	rev.Labels["hash"] = "abc"
	if _, leaked := template["hash"]; leaked {
		t.Error("the revision's labels are the template's own map")
	}
	ref := metav1.GetControllerOfNoCopy(rev)
	if rev.Namespace != "shop" || rev.Revision != 4 || string(rev.Data.Raw) != `{"spec":{}}` || rev.Annotations["note"] != "x" ||
		ref == nil || ref.Kind != "StatefulSet" || ref.UID != "set-1" {
		t.Errorf("revision %+v", rev)
	}
	if rev := NewRevision(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"), nil, nil, 1); rev.Labels == nil {
		t.Error("a template without labels gives a revision with no label map for its hash label")
	}
}

// A pod that has just become ready is available minReadySeconds later with
// no event to say so: its owner is looked at again a second after that,
// and only then — not for a pod already ready, nor one becoming not ready,
// nor an owner without minReadySeconds or gone.
func TestAddWhenAvailableOnlyForAPodThatJustBecameReady(t *testing.T) {
	pod := func(ready corev1.ConditionStatus) *corev1.Pod {
		return &corev1.Pod{Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: ready}}}}
	}
	notReady, ready := pod(corev1.ConditionFalse), pod(corev1.ConditionTrue)
	sets := map[string]*appsv1.StatefulSet{
		"shop/slow": {Spec: appsv1.StatefulSetSpec{MinReadySeconds: 10}},
		"shop/fast": {},
	}
	gr := schema.GroupResource{Group: "apps", Resource: "statefulsets"}
	get := func(ns, name string) (*appsv1.StatefulSet, error) {
		if s, ok := sets[ns+"/"+name]; ok {
			return s, nil
		}
		return nil, apierrors.NewNotFound(gr, name)
	}
	minReady := func(s *appsv1.StatefulSet) int32 { return s.Spec.MinReadySeconds }
	q := &recorded{}
	var k Keys
	k.Set(q)
	AddWhenAvailable(&k, "shop/slow", notReady, ready, get, minReady)
	AddWhenAvailable(&k, "shop/slow", ready, ready, get, minReady)
	AddWhenAvailable(&k, "shop/slow", ready, notReady, get, minReady)
	AddWhenAvailable(&k, "shop/fast", notReady, ready, get, minReady)
	AddWhenAvailable(&k, "shop/gone", notReady, ready, get, minReady)
	AddWhenAvailable(&k, "", notReady, ready, get, minReady)
	if want := []string{"shop/slow@11s"}; !slices.Equal(q.added, want) {
		t.Errorf("queued %v, want %v", q.added, want)
	}
}
