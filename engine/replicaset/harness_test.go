package replicaset

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
)

var t0 = controltest.Start

// harness runs one controller against a fake clientset. The listers are fed
// only when the test calls observe, so a test decides when "the informer"
// catches up with the API.
type harness struct {
	*controltest.Harness
	ctrl  *Controller
	names int
}

func newHarness(t testing.TB, rc bool, objs ...runtime.Object) *harness {
	t.Helper()
	h := &harness{Harness: controltest.New(t)}
	// The fake API neither generates names nor assigns UIDs.
	h.Client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		p := a.(k8stesting.CreateAction).GetObject().(*corev1.Pod)
		if p.Name == "" {
			h.names++
			p.Name = fmt.Sprintf("%s%05d", p.GenerateName, h.names)
		}
		p.UID = types.UID("uid-" + p.Name)
		p.CreationTimestamp = metav1.NewTime(h.Clock.Now())
		return false, nil, nil
	})
	if rc {
		h.ctrl = NewReplicationController(h.Env)
	} else {
		h.ctrl = NewReplicaSet(h.Env)
	}
	h.Watch(h.ctrl)
	h.AddToAPI(objs...)
	h.observe()
	h.Client.ClearActions()
	h.Queue.Added = nil
	return h
}

// observe brings the listers up to date with the API and calls the
// controller's handlers for every difference, as an informer would.
func (h *harness) observe() {
	h.T.Helper()
	h.Observe(control.Pods, control.ReplicaSets, control.ReplicationControllers)
}

func (h *harness) sync(key string) error {
	h.T.Helper()
	return h.ctrl.Sync(context.Background(), key)
}

// actions returns "verb resource[/subresource]" of the API calls made since
// the last call, and forgets them.
func (h *harness) actions() []string {
	var out []string
	for _, a := range h.Client.Actions() {
		if a.GetVerb() == "list" || a.GetVerb() == "watch" {
			continue
		}
		s := a.GetVerb() + " " + a.GetResource().Resource
		if a.GetSubresource() != "" {
			s += "/" + a.GetSubresource()
		}
		out = append(out, s)
	}
	h.Client.ClearActions()
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
	h.T.Helper()
	list, err := h.Client.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.T.Fatal(err)
	}
	h.Client.ClearActions()
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	return list.Items
}

func (h *harness) podNamed(name string) *corev1.Pod {
	h.T.Helper()
	p, err := h.Client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.T.Fatal(err)
	}
	h.Client.ClearActions()
	return p
}

func (h *harness) replicaSet(name string) *appsv1.ReplicaSet {
	h.T.Helper()
	rs, err := h.Client.AppsV1().ReplicaSets("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.T.Fatal(err)
	}
	h.Client.ClearActions()
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
