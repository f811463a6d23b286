package deployment

import (
	"context"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

func TestReplicaSetEventsEnqueueTheDeploymentsConcerned(t *testing.T) {
	web := webDeployment(1, "web:v1", appsv1.RollingUpdateDeploymentStrategyType)
	alsoWeb := webDeployment(1, "web:v1", appsv1.RollingUpdateDeploymentStrategyType)
	alsoWeb.Name, alsoWeb.UID = "a-web", "uid-a-web"
	api := webDeployment(1, "api:v1", appsv1.RollingUpdateDeploymentStrategyType)
	api.Name, api.UID = "api", "uid-api"
	api.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "api"}}
	f := newFixture(t, web, alsoWeb, api)
	h := f.c.Watches(f.Queue)[control.ReplicaSets]

	owned := newRS("web-1", 1, nil, fixtureNow)
	owned.Labels = map[string]string{"app": "web"}
	owned.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(web, controllerKind)}
	orphan := owned.DeepCopy()
	orphan.Name, orphan.OwnerReferences = "web-orphan", nil
	strangers := owned.DeepCopy()
	strangers.Name = "web-foreign"
	strangers.OwnerReferences[0].UID = "uid-of-a-deleted-web"

	for _, c := range []struct {
		name string
		fire func()
		want []string
	}{
		{"owned added", func() { h.OnAdd(owned, false) }, []string{"default/web"}},
		{"orphan added: every selecting deployment, by name", func() { h.OnAdd(orphan, false) }, []string{"default/a-web", "default/web"}},
		{"owner with another UID", func() { h.OnAdd(strangers, false) }, nil},
		{"unchanged resync", func() { h.OnUpdate(owned, owned) }, nil},
		{"released: old owner, then adopters", func() {
			cur := orphan.DeepCopy()
			cur.ResourceVersion = "2"
			h.OnUpdate(owned, cur)
		}, []string{"default/web", "default/a-web", "default/web"}},
		{"orphan relabelled to api", func() {
			cur := orphan.DeepCopy()
			cur.ResourceVersion, cur.Labels = "3", map[string]string{"app": "api"}
			h.OnUpdate(orphan, cur)
		}, []string{"default/api"}},
		{"owned deleted via tombstone", func() {
			h.OnDelete(cache.DeletedFinalStateUnknown{Key: "default/web-1", Obj: owned})
		}, []string{"default/web"}},
		{"orphan deleted", func() { h.OnDelete(orphan) }, nil},
	} {
		f.Queue.Added = nil
		c.fire()
		if !slices.Equal(f.Queue.Added, c.want) {
			t.Errorf("%s: enqueued %v, want %v", c.name, f.Queue.Added, c.want)
		}
	}
}

func TestSyncOfAVanishedDeploymentIsANoOp(t *testing.T) {
	f := newFixture(t)
	if err := f.c.Sync(context.Background(), "default/gone"); err != nil {
		t.Errorf("Sync of a missing deployment: %v", err)
	}
	if err := f.c.Sync(context.Background(), "a/b/c"); err == nil {
		t.Error("Sync of a malformed key: want an error")
	}
	if len(f.Client.Actions()) != 0 {
		t.Errorf("actions: %v", f.Client.Actions())
	}
}

func TestNameIsUpstreams(t *testing.T) {
	if n := New(&control.Env{}).Name(); n != "deployment-controller" {
		t.Errorf("Name = %q", n)
	}
}
