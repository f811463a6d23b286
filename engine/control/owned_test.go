package control

import (
	"errors"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
)

// recorded is a Queue that keeps what was added.
type recorded struct{ added []string }

func (r *recorded) Add(key string) { r.added = append(r.added, key) }
func (r *recorded) AddAfter(key string, d time.Duration) {
	r.added = append(r.added, key+"@"+d.String())
}

// Handlers may fire before Watches has handed over the queue, and pass on
// "" for an object no set owns: neither may reach the queue or panic.
func TestKeysDropEmptyKeysAndAddsBeforeTheQueue(t *testing.T) {
	var k Keys
	k.Add("ns/early")
	q := &recorded{}
	k.Set(q)
	k.Add("")
	k.AddAfter("", time.Second)
	k.Add("ns/web")
	k.AddAfter("ns/web", 3*time.Second)
	if want := []string{"ns/web", "ns/web@3s"}; !slices.Equal(q.added, want) {
		t.Errorf("queued %v, want %v", q.added, want)
	}
}

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

func TestLookupTellsNothingToDoFromRetry(t *testing.T) {
	web := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web"}}
	gr := schema.GroupResource{Group: "apps", Resource: "statefulsets"}
	get := func(err error) func(ns, name string) (*appsv1.StatefulSet, error) {
		return func(ns, name string) (*appsv1.StatefulSet, error) {
			if err != nil {
				return nil, err
			}
			if ns != "shop" || name != "web" {
				t.Errorf("read %s/%s, want shop/web", ns, name)
			}
			return web, nil
		}
	}
	if got, found, err := Lookup("shop/web", get(nil)); got != web || !found || err != nil {
		t.Errorf("an existing set: %v, %v, %v", got, found, err)
	}
	if _, found, err := Lookup("shop/web", get(apierrors.NewNotFound(gr, "web"))); found || err != nil {
		t.Errorf("a deleted set: found %v, err %v; want nothing to do", found, err)
	}
	if _, found, err := Lookup("a/b/c", get(nil)); found || err != nil {
		t.Errorf("a malformed key: found %v, err %v; want nothing to do", found, err)
	}
	broken := errors.New("cache not synced")
	if _, found, err := Lookup("shop/web", get(broken)); found || !errors.Is(err, broken) {
		t.Errorf("a failed read: found %v, err %v; want it retried", found, err)
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
