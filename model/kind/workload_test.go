package kind_test

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/kind"
)

func TestOf(t *testing.T) {
	three := int32(3)
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
	tmpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "db"}}}
	cases := []struct {
		obj      any
		kind     kind.Kind
		replicas int32
		scaled   bool
	}{
		{&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: appsv1.DeploymentSpec{Replicas: &three, Selector: sel, Template: tmpl}}, kind.Deployment, 3, true},
		{&corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: corev1.ReplicationControllerSpec{Selector: sel.MatchLabels, Template: &tmpl}}, kind.ReplicationController, 1, true},
		{&appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: appsv1.StatefulSetSpec{Replicas: &three, Selector: sel, Template: tmpl}}, kind.StatefulSet, 3, true},
		{&appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: appsv1.DaemonSetSpec{Selector: sel, Template: tmpl}}, kind.DaemonSet, 0, false},
	}
	for _, c := range cases {
		w, ok := kind.Of(c.obj)
		if !ok {
			t.Fatalf("Of(%T) is not a workload", c.obj)
		}
		if w.Kind() != c.kind || w.GetName() != "db" || w.Object() != c.obj {
			t.Errorf("Of(%T): kind %s, name %s", c.obj, w.Kind(), w.GetName())
		}
		if n, scaled := w.Replicas(); n != c.replicas || scaled != c.scaled {
			t.Errorf("%s: replicas %d, %v; want %d, %v", c.kind, n, scaled, c.replicas, c.scaled)
		}
		if w.Template().Labels["app"] != "db" || w.Selector().MatchLabels["app"] != "db" {
			t.Errorf("%s: template %v selector %v", c.kind, w.Template(), w.Selector())
		}
	}
	var nilSet *appsv1.StatefulSet
	for _, o := range []any{&corev1.Pod{}, nil, nilSet} {
		if _, ok := kind.Of(o); ok {
			t.Errorf("Of(%T) is a workload", o)
		}
	}
}

// TestCopyTakesTheStatusItsControllerWrote: a rehearsal's copy of every
// kind carries the original's status, observed at the copy's generation.
func TestCopyTakesTheStatusItsControllerWrote(t *testing.T) {
	n := int32(3)
	for _, o := range []any{
		&appsv1.Deployment{Status: appsv1.DeploymentStatus{ObservedGeneration: 7, UpdatedReplicas: n}},
		&corev1.ReplicationController{Status: corev1.ReplicationControllerStatus{ObservedGeneration: 7, Replicas: n}},
		&appsv1.StatefulSet{Status: appsv1.StatefulSetStatus{ObservedGeneration: 7, UpdatedReplicas: n}},
		&appsv1.DaemonSet{Status: appsv1.DaemonSetStatus{ObservedGeneration: 7, UpdatedNumberScheduled: n}},
	} {
		w, _ := kind.Of(o)
		cp := w.Copy(metav1.ObjectMeta{Name: "copy", Generation: 1})
		if cp.Figures() == w.Figures() {
			t.Fatalf("%s: a fresh copy already has the original's status", w.Kind())
		}
		kind.TakeStatus(cp, w)
		f, g := cp.Figures(), w.Figures()
		if [3]int64(f[1:]) != [3]int64(g[1:]) {
			t.Errorf("%s: copy's figures %v, want the original's %v", w.Kind(), f, g)
		}
		if got := reflect.ValueOf(cp.Object()).Elem().FieldByName("Status").FieldByName("ObservedGeneration").Int(); got != 1 {
			t.Errorf("%s: copy observed generation %d, want its own 1", w.Kind(), got)
		}
	}
}
