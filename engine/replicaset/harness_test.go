package replicaset

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"rollscope/engine/control"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// harness runs one controller against a fake clientset. The listers are fed
// only when the test calls observe, so a test decides when "the informer"
// catches up with the API.
type harness struct {
	t      testing.TB
	client *fake.Clientset
	clock  *clocktesting.FakePassiveClock
	ix     map[control.Kind]cache.Indexer
	ctrl   *Controller
	queue  *queue
	events *events
	hs     map[control.Kind]cache.ResourceEventHandler
	names  int
	rv     int
}

// queue records what the controller enqueues.
type queue struct {
	added []string
	after []delayed
}

type delayed struct {
	key string
	d   time.Duration
}

func (q *queue) Add(key string)                       { q.added = append(q.added, key) }
func (q *queue) AddAfter(key string, d time.Duration) { q.after = append(q.after, delayed{key, d}) }

// events records events as "Type Reason Message" lines.
type events struct{ lines []string }

func (e *events) Eventf(obj runtime.Object, eventType, reason, format string, args ...any) {
	e.lines = append(e.lines, eventType+" "+reason+" "+fmt.Sprintf(format, args...))
}

func newHarness(t testing.TB, rc bool, objs ...runtime.Object) *harness {
	t.Helper()
	h := &harness{
		t:      t,
		client: fake.NewSimpleClientset(objs...),
		clock:  clocktesting.NewFakePassiveClock(t0),
		ix:     map[control.Kind]cache.Indexer{},
		queue:  &queue{},
		events: &events{},
	}
	for _, k := range []control.Kind{control.Pods, control.ReplicaSets, control.ReplicationControllers} {
		h.ix[k] = cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(k))
	}
	// The fake API neither generates names nor assigns UIDs.
	h.client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		p := a.(k8stesting.CreateAction).GetObject().(*corev1.Pod)
		if p.Name == "" {
			h.names++
			p.Name = fmt.Sprintf("%s%05d", p.GenerateName, h.names)
		}
		p.UID = types.UID("uid-" + p.Name)
		p.CreationTimestamp = metav1.NewTime(h.clock.Now())
		return false, nil, nil
	})
	env := &control.Env{
		Client: h.client,
		Clock:  h.clock,
		Events: h.events,
		Listers: control.Listers{
			Pods:                   corelisters.NewPodLister(h.ix[control.Pods]),
			ReplicaSets:            appslisters.NewReplicaSetLister(h.ix[control.ReplicaSets]),
			ReplicationControllers: corelisters.NewReplicationControllerLister(h.ix[control.ReplicationControllers]),
			PodIndex:               h.ix[control.Pods],
			ReplicaSetIndex:        h.ix[control.ReplicaSets],
			RCIndex:                h.ix[control.ReplicationControllers],
		},
	}
	if rc {
		h.ctrl = NewReplicationController(env)
	} else {
		h.ctrl = NewReplicaSet(env)
	}
	h.hs = h.ctrl.Watches(h.queue)
	h.observe()
	h.client.ClearActions()
	h.queue.added = nil
	return h
}

// observe brings the listers up to date with the API and calls the
// controller's handlers for every difference, as an informer would.
func (h *harness) observe() {
	h.t.Helper()
	ctx := context.Background()
	var current []runtime.Object
	pods, err := h.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	for i := range pods.Items {
		current = append(current, &pods.Items[i])
	}
	h.reconcile(control.Pods, current)
	current = nil
	rss, err := h.client.AppsV1().ReplicaSets("").List(ctx, metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	for i := range rss.Items {
		current = append(current, &rss.Items[i])
	}
	h.reconcile(control.ReplicaSets, current)
	current = nil
	rcs, err := h.client.CoreV1().ReplicationControllers("").List(ctx, metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	for i := range rcs.Items {
		current = append(current, &rcs.Items[i])
	}
	h.reconcile(control.ReplicationControllers, current)
}

func (h *harness) reconcile(kind control.Kind, current []runtime.Object) {
	ix := h.ix[kind]
	handler := h.hs[kind]
	seen := map[string]bool{}
	sort.Slice(current, func(i, j int) bool { return control.Key(current[i]) < control.Key(current[j]) })
	for _, obj := range current {
		key := control.Key(obj)
		seen[key] = true
		old, exists, _ := ix.GetByKey(key)
		if exists && equality.Semantic.DeepEqual(withoutVersion(old), withoutVersion(obj)) {
			continue
		}
		// The fake API does not bump resourceVersions; the controller
		// ignores updates that keep one, as informer resyncs do.
		h.rv++
		obj.(metav1.Object).SetResourceVersion(strconv.Itoa(h.rv))
		if err := ix.Update(obj); err != nil {
			h.t.Fatal(err)
		}
		if handler == nil {
			continue
		}
		if exists {
			handler.OnUpdate(old, obj)
		} else {
			handler.OnAdd(obj, false)
		}
	}
	for _, key := range ix.ListKeys() {
		if seen[key] {
			continue
		}
		old, _, _ := ix.GetByKey(key)
		_ = ix.Delete(old)
		if handler != nil {
			handler.OnDelete(old)
		}
	}
}

func withoutVersion(obj any) runtime.Object {
	c := obj.(runtime.Object).DeepCopyObject()
	c.(metav1.Object).SetResourceVersion("")
	return c
}

func (h *harness) sync(key string) error {
	h.t.Helper()
	return h.ctrl.Sync(context.Background(), key)
}

// actions returns "verb resource[/subresource]" of the API calls made since
// the last call, and forgets them.
func (h *harness) actions() []string {
	var out []string
	for _, a := range h.client.Actions() {
		if a.GetVerb() == "list" || a.GetVerb() == "watch" {
			continue
		}
		s := a.GetVerb() + " " + a.GetResource().Resource
		if a.GetSubresource() != "" {
			s += "/" + a.GetSubresource()
		}
		out = append(out, s)
	}
	h.client.ClearActions()
	return out
}

func count(actions []string, want string) int {
	n := 0
	for _, a := range actions {
		if a == want {
			n++
		}
	}
	return n
}

func (h *harness) pods() []corev1.Pod {
	h.t.Helper()
	list, err := h.client.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	h.client.ClearActions()
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	return list.Items
}

func (h *harness) podNamed(name string) *corev1.Pod {
	h.t.Helper()
	p, err := h.client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	h.client.ClearActions()
	return p
}

func (h *harness) replicaSet(name string) *appsv1.ReplicaSet {
	h.t.Helper()
	rs, err := h.client.AppsV1().ReplicaSets("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	h.client.ClearActions()
	return rs
}

var template = corev1.PodTemplateSpec{
	ObjectMeta: metav1.ObjectMeta{
		Labels:      map[string]string{"app": "web", "tier": "frontend"},
		Annotations: map[string]string{"team": "checkout"},
	},
	Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "php", Image: "gb-frontend:v3"}}},
}

func newRS(name string, replicas int32) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Generation: 1},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: template,
		},
	}
}

func newRC(name string, replicas int32) *corev1.ReplicationController {
	t := template
	return &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Generation: 1},
		Spec: corev1.ReplicationControllerSpec{
			Replicas: &replicas,
			Selector: map[string]string{"app": "web"},
			Template: &t,
		},
	}
}

// podOf returns a pod controlled by owner (a ReplicaSet unless kind says otherwise).
func podOf(owner metav1.Object, kind, name, node string, phase corev1.PodPhase, readySince *time.Time) *corev1.Pod {
	apiVersion := "apps/v1"
	if kind == "ReplicationController" {
		apiVersion = "v1"
	}
	yes := true
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "default", UID: types.UID("uid-" + name),
			Labels:            map[string]string{"app": "web", "tier": "frontend"},
			CreationTimestamp: metav1.NewTime(t0.Add(-time.Hour)),
			ResourceVersion:   "1",
		},
		Spec:   corev1.PodSpec{NodeName: node},
		Status: corev1.PodStatus{Phase: phase},
	}
	if owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: owner.GetName(), UID: owner.GetUID(), Controller: &yes}}
	}
	if readySince != nil {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(*readySince)}}
	} else if phase == corev1.PodRunning {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
	}
	return p
}

func ago(d time.Duration) *time.Time {
	t := t0.Add(-d)
	return &t
}
