package objects_test

import (
	"context"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/kube/memapi"
	"rollscope/kube/objects"
	"rollscope/model/kind"
)

func TestEveryKindHasItsRowInTheRegistrysOrder(t *testing.T) {
	rows := objects.All()
	entries := kind.All()
	if len(rows) != len(entries) {
		t.Fatalf("%d rows for %d kinds", len(rows), len(entries))
	}
	for i, e := range entries {
		if rows[i].Kind != e.Kind {
			t.Errorf("row %d is %s, want %s", i, rows[i].Kind, e.Kind)
		}
		if r, ok := objects.For(e.Kind); !ok || r.Kind != e.Kind {
			t.Errorf("For(%s) = %v, %v", e.Kind, r.Kind, ok)
		}
		w, ok := kind.Of(rows[i].New())
		if !ok || w.Kind() != e.Kind {
			t.Errorf("%s: New makes an object of another kind", e.Kind)
		}
	}
	if _, ok := objects.For("pod"); ok {
		t.Error("a pod has a row")
	}
}

func workloadsOfEveryKind() []runtime.Object {
	meta := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: "ns", Name: name} }
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}
	tmpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "x"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app:1"}}}}
	return []runtime.Object{
		&appsv1.Deployment{ObjectMeta: meta("web"), Spec: appsv1.DeploymentSpec{Selector: sel, Template: tmpl}},
		&corev1.ReplicationController{ObjectMeta: meta("old"), Spec: corev1.ReplicationControllerSpec{Selector: map[string]string{"app": "x"}, Template: &tmpl}},
		&appsv1.StatefulSet{ObjectMeta: meta("db"), Spec: appsv1.StatefulSetSpec{Selector: sel, Template: tmpl}},
		&appsv1.DaemonSet{ObjectMeta: meta("agent"), Spec: appsv1.DaemonSetSpec{Selector: sel, Template: tmpl}},
	}
}

// Each row creates, gets, lists, watches, patches and deletes its kind, on a fake clientset
// and on the embedded API alike.
func TestRowsReachTheirKindOnAnyConnection(t *testing.T) {
	for name, c := range map[string]kubernetes.Interface{
		"fake":   fake.NewClientset(),
		"memapi": memapi.New(memapi.Options{}).Client(),
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if _, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, obj := range workloadsOfEveryKind() {
				w, _ := kind.Of(obj)
				row, _ := objects.For(w.Kind())
				before := obj.DeepCopyObject()
				if err := row.Create(ctx, c, obj); err != nil {
					t.Fatalf("%s: create: %v", w.Kind(), err)
				}
				if !reflect.DeepEqual(obj, before) {
					t.Errorf("%s: create changed the object it was given", w.Kind())
				}
				p := `{"metadata":{"labels":{"patched":"yes"}}}`
				if err := row.Patch(ctx, c, "ns", w.GetName(), types.MergePatchType, []byte(p)); err != nil {
					t.Fatalf("%s: patch: %v", w.Kind(), err)
				}
				got, err := row.Get(ctx, c, "ns", w.GetName())
				if err != nil || got.Kind() != w.Kind() || got.GetLabels()["patched"] != "yes" {
					t.Errorf("%s: get = %v, %v; want the patched object", w.Kind(), got, err)
				}
				list, err := row.ListWatch(c, "ns").List(ctx, metav1.ListOptions{})
				if err != nil || meta.LenList(list) != 1 {
					t.Errorf("%s: list = %v, %v; want the one object", w.Kind(), list, err)
				}
				wi, err := row.ListWatch(c, "ns").Watch(ctx, metav1.ListOptions{})
				if err != nil {
					t.Fatalf("%s: watch: %v", w.Kind(), err)
				}
				wi.Stop()
				if err := row.DeleteAll(ctx, c, "ns", metav1.DeleteOptions{}); err != nil {
					t.Fatalf("%s: delete all: %v", w.Kind(), err)
				}
				// The fake clientset records a delete-collection but keeps
				// the objects.
				if _, err := row.Get(ctx, c, "ns", w.GetName()); err == nil && name == "memapi" {
					t.Errorf("%s: still there after DeleteAll", w.Kind())
				}
			}
		})
	}
}
