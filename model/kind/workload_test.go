package kind_test

import (
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
