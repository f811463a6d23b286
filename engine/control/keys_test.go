package control

import (
	"errors"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
