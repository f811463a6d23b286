package deployment

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
	"rollscope/model"
)

// fixture is a controller on a fake clientset, with listers the test seeds
// directly (as sample-controller's tests do), a hand-driven clock, and
// recording event and queue fakes. The controller's handlers are not
// registered: a test calls them itself.
type fixture struct {
	*controltest.Harness
	c *Controller
}

var fixtureNow = controltest.Start

// newFixture seeds objs into both the API and the listers. Objects created
// through the fake API get a UID, as an API server would give them.
func newFixture(t testing.TB, objs ...runtime.Object) *fixture {
	t.Helper()
	f := &fixture{Harness: controltest.New(t, objs...)}
	f.Client.PrependReactor("create", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if m, ok := a.(k8stesting.CreateAction).GetObject().(metav1.Object); ok && m.GetUID() == "" {
			m.SetUID(types.UID("uid-" + m.GetName()))
		}
		return false, nil, nil
	})
	f.c = New(f.Env)
	f.c.Watches(f.Queue)
	return f
}

// refreshCaches makes the listers show what the API holds now, as informers
// would once they caught up.
func (f *fixture) refreshCaches() {
	f.T.Helper()
	f.Observe(control.Deployments, control.ReplicaSets, control.Pods)
}

// sync runs one Sync of key and fails the test on error.
func (f *fixture) sync(key string) {
	f.T.Helper()
	if err := f.c.Sync(context.Background(), key); err != nil {
		f.T.Fatalf("Sync(%s): %v", key, err)
	}
}

// deployment reads a deployment from the API.
func (f *fixture) deployment(name string) *appsv1.Deployment {
	f.T.Helper()
	d, err := f.Client.AppsV1().Deployments(metav1.NamespaceDefault).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		f.T.Fatalf("get deployment %s: %v", name, err)
	}
	return d
}

// replicaSets reads every ReplicaSet from the API, oldest first.
func (f *fixture) replicaSets() []*appsv1.ReplicaSet {
	f.T.Helper()
	l, err := f.Client.AppsV1().ReplicaSets(metav1.NamespaceDefault).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		f.T.Fatal(err)
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
	for _, a := range f.Client.Actions() {
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
	for _, a := range f.Client.Actions() {
		if u, ok := a.(k8stesting.UpdateAction); ok && a.GetResource().Resource == "replicasets" {
			out = append(out, u.GetObject().(*appsv1.ReplicaSet))
		}
	}
	return out
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
