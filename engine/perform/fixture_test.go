package perform_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// memCluster is an embedded API holding the deployments, controllers and
// nodes given, on a clock stopped at epoch.
func memCluster(t *testing.T, objs ...runtime.Object) (kubernetes.Interface, *sim.Clock) {
	t.Helper()
	clock := sim.NewClock(epoch)
	c := memapi.New(memapi.Options{Clock: clock, Seed: 1}).Client()
	ctx := context.Background()
	for _, obj := range objs {
		var err error
		switch o := obj.(type) {
		case *appsv1.Deployment:
			_, err = c.AppsV1().Deployments(o.Namespace).Create(ctx, o, metav1.CreateOptions{})
		case *corev1.ReplicationController:
			_, err = c.CoreV1().ReplicationControllers(o.Namespace).Create(ctx, o, metav1.CreateOptions{})
		case *corev1.Node:
			_, err = c.CoreV1().Nodes().Create(ctx, o, metav1.CreateOptions{})
		default:
			t.Fatalf("memCluster cannot create a %T", obj)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return c, clock
}

func template(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}}}}
}

// web is deployment default/web of 2 replicas on a:1.
func web() *appsv1.Deployment {
	replicas := int32(2)
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "d"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Template: template("a:1"),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
	}
}

// undoFixture is a paused deployment on a:2 with revision 1 (a:1) kept.
func undoFixture() (*appsv1.Deployment, *appsv1.ReplicaSet) {
	d := web()
	d.Spec.Paused, d.Spec.Template = true, template("a:2")
	return d, revision(d, 1, "a:1")
}

// revision is a ReplicaSet of d's, its revision n on image.
func revision(d *appsv1.Deployment, n int, image string) *appsv1.ReplicaSet {
	yes := true
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%d", n), Namespace: "default", UID: types.UID(fmt.Sprintf("rs%d", n)),
		Labels:          map[string]string{"app": "web"},
		Annotations:     map[string]string{"deployment.kubernetes.io/revision": strconv.Itoa(n)},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: d.UID, Controller: &yes}}},
		Spec: appsv1.ReplicaSetSpec{Template: template(image), Selector: d.Spec.Selector}}
}
