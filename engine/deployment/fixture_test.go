package deployment

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"rollscope/engine/control"
	"rollscope/model"
)

// fixture is a controller on a fake clientset, with listers the test seeds
// directly (as sample-controller's tests do), a hand-driven clock, and
// recording event and queue fakes.
type fixture struct {
	t        testing.TB
	client   *fake.Clientset
	indexers map[control.Kind]cache.Indexer
	clock    *clocktesting.FakePassiveClock
	events   *recordedEvents
	queue    *recordedQueue
	c        *Controller
}

var fixtureNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// newFixture seeds objs into both the API and the listers. Objects created
// through the fake API get a UID, as an API server would give them.
func newFixture(t testing.TB, objs ...runtime.Object) *fixture {
	t.Helper()
	f := &fixture{
		t:        t,
		client:   fake.NewSimpleClientset(objs...),
		indexers: map[control.Kind]cache.Indexer{},
		clock:    clocktesting.NewFakePassiveClock(fixtureNow),
		events:   &recordedEvents{},
		queue:    &recordedQueue{},
	}
	f.client.PrependReactor("create", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if m, ok := a.(k8stesting.CreateAction).GetObject().(metav1.Object); ok && m.GetUID() == "" {
			m.SetUID(types.UID("uid-" + m.GetName()))
		}
		return false, nil, nil
	})
	for _, k := range []control.Kind{control.Deployments, control.ReplicaSets, control.Pods} {
		f.indexers[k] = cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(k))
	}
	for _, o := range objs {
		f.addToCache(o)
	}
	env := &control.Env{
		Client: f.client,
		Listers: control.Listers{
			Deployments:     appslisters.NewDeploymentLister(f.indexers[control.Deployments]),
			ReplicaSets:     appslisters.NewReplicaSetLister(f.indexers[control.ReplicaSets]),
			Pods:            corelisters.NewPodLister(f.indexers[control.Pods]),
			ReplicaSetIndex: f.indexers[control.ReplicaSets],
			PodIndex:        f.indexers[control.Pods],
		},
		Clock:  f.clock,
		Events: f.events,
	}
	f.c = New(env)
	f.c.Watches(f.queue)
	return f
}

func (f *fixture) addToCache(o runtime.Object) {
	switch o.(type) {
	case *appsv1.Deployment:
		_ = f.indexers[control.Deployments].Add(o)
	case *appsv1.ReplicaSet:
		_ = f.indexers[control.ReplicaSets].Add(o)
	case *corev1.Pod:
		_ = f.indexers[control.Pods].Add(o)
	}
}

// refreshCaches makes the listers show what the API holds now, as informers
// would once they caught up.
func (f *fixture) refreshCaches() {
	f.t.Helper()
	ctx := context.Background()
	ds, err := f.client.AppsV1().Deployments("").List(ctx, metav1.ListOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	rss, err := f.client.AppsV1().ReplicaSets("").List(ctx, metav1.ListOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	pods, err := f.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	var dl, rl, pl []any
	for i := range ds.Items {
		dl = append(dl, &ds.Items[i])
	}
	for i := range rss.Items {
		rl = append(rl, &rss.Items[i])
	}
	for i := range pods.Items {
		pl = append(pl, &pods.Items[i])
	}
	_ = f.indexers[control.Deployments].Replace(dl, "")
	_ = f.indexers[control.ReplicaSets].Replace(rl, "")
	_ = f.indexers[control.Pods].Replace(pl, "")
}

// sync runs one Sync of key and fails the test on error.
func (f *fixture) sync(key string) {
	f.t.Helper()
	if err := f.c.Sync(context.Background(), key); err != nil {
		f.t.Fatalf("Sync(%s): %v", key, err)
	}
}

// deployment reads a deployment from the API.
func (f *fixture) deployment(name string) *appsv1.Deployment {
	f.t.Helper()
	d, err := f.client.AppsV1().Deployments(metav1.NamespaceDefault).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		f.t.Fatalf("get deployment %s: %v", name, err)
	}
	return d
}

// replicaSets reads every ReplicaSet from the API, oldest first.
func (f *fixture) replicaSets() []*appsv1.ReplicaSet {
	f.t.Helper()
	l, err := f.client.AppsV1().ReplicaSets(metav1.NamespaceDefault).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []*appsv1.ReplicaSet
	for i := range l.Items {
		out = append(out, &l.Items[i])
	}
	model.SortByCreationTimestamp(out)
	return out
}

// writes lists the create/update/patch/delete actions recorded so far.
func (f *fixture) writes() []k8stesting.Action {
	var out []k8stesting.Action
	for _, a := range f.client.Actions() {
		switch a.GetVerb() {
		case "create", "update", "patch", "delete":
			out = append(out, a)
		}
	}
	return out
}

// rsUpdates lists the ReplicaSets written by update actions, in order.
func (f *fixture) rsUpdates() []*appsv1.ReplicaSet {
	var out []*appsv1.ReplicaSet
	for _, a := range f.client.Actions() {
		if u, ok := a.(k8stesting.UpdateAction); ok && a.GetResource().Resource == "replicasets" {
			out = append(out, u.GetObject().(*appsv1.ReplicaSet))
		}
	}
	return out
}

// recordedEvents is a control.Recorder that keeps "Type Reason Message" lines.
type recordedEvents struct {
	mu    sync.Mutex
	lines []string
}

func (r *recordedEvents) Eventf(_ runtime.Object, eventType, reason, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, eventType+" "+reason+" "+fmt.Sprintf(format, args...))
}

func (r *recordedEvents) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

// recordedQueue is a control.Queue that remembers what was asked of it.
type recordedQueue struct {
	mu    sync.Mutex
	added []string
	after []delayedKey
}

type delayedKey struct {
	key   string
	after time.Duration
}

func (q *recordedQueue) Add(key string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.added = append(q.added, key)
}

func (q *recordedQueue) AddAfter(key string, d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.after = append(q.after, delayedKey{key, d})
}

// newDeployment mirrors upstream's test helper: RollingUpdate with maxSurge
// and maxUnavailable 0 unless given, image foo/bar, selector on the template.
func newDeployment(name string, replicas int32, historyLimit *int32, maxSurge, maxUnavailable *intstr.IntOrString, selector map[string]string) *appsv1.Deployment {
	zero := intstr.FromInt32(0)
	d := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{UID: types.UID("uid-" + name), Name: name, Namespace: metav1.NamespaceDefault, Annotations: map[string]string{}},
		Spec: appsv1.DeploymentSpec{
			Strategy: appsv1.DeploymentStrategy{
				Type:          appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &zero, MaxUnavailable: &zero},
			},
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: selector},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: selector},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Image: "foo/bar"}}},
			},
			RevisionHistoryLimit: historyLimit,
		},
	}
	if maxSurge != nil {
		d.Spec.Strategy.RollingUpdate.MaxSurge = maxSurge
	}
	if maxUnavailable != nil {
		d.Spec.Strategy.RollingUpdate.MaxUnavailable = maxUnavailable
	}
	return d
}

// newRS mirrors upstream's rs() helper: an empty template, the given size.
func newRS(name string, replicas int32, selector map[string]string, created time.Time) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: metav1.NamespaceDefault, UID: types.UID("uid-" + name), CreationTimestamp: metav1.NewTime(created)},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: selector},
		},
	}
}

func ref[T any](v T) *T { return &v }
