package cluster_test

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/cluster"
)

// rc is a ReplicationController of image at size, its status caught up,
// with annotations.
func rc(name, image string, size, ready int32, annotations map[string]string) *corev1.ReplicationController {
	tmpl := podTemplate("web", image)
	return &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Namespace: shop, Name: name, UID: types.UID("uid-" + name), ResourceVersion: "1", Annotations: annotations},
		Spec:       corev1.ReplicationControllerSpec{Replicas: &size, Selector: map[string]string{"app": "web"}, Template: &tmpl},
		Status:     corev1.ReplicationControllerStatus{Replicas: size, ReadyReplicas: ready, AvailableReplicas: ready},
	}
}

func rcPod(owner *corev1.ReplicationController, name string, ready bool) *corev1.Pod {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: shop, Name: name, ResourceVersion: "1", OwnerReferences: controlledBy("ReplicationController", owner.Name, owner.UID)},
		Spec:       corev1.PodSpec{NodeName: "n1", Containers: []corev1.Container{{Name: "web", Image: owner.Spec.Template.Spec.Containers[0].Image}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning,
			Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: status}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "web", Ready: ready, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}},
	}
}

func rcLoaded(objs ...runtime.Object) *cluster.Cluster {
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: t0, Objects: objs, Watch: synced})
	return c
}

// midUpdate is web halfway to web:v2 through web-next: web at 2, web-next
// at 3 of which 2 are ready, 4 desired, the legacy limits.
func midUpdate() (*corev1.ReplicationController, *corev1.ReplicationController, []runtime.Object) {
	old := rc("web", "web:v1", 2, 2, map[string]string{model.RCNextAnnotation: "web-next", model.RCOriginalAnnotation: "4"})
	next := rc("web-next", "web:v2", 3, 2, map[string]string{model.RCSourceAnnotation: "web:uid-web", model.RCDesiredAnnotation: "4", model.RCRenameAnnotation: "web"})
	objs := []runtime.Object{old, next,
		rcPod(old, "web-a", true), rcPod(old, "web-b", true),
		rcPod(next, "web-next-a", true), rcPod(next, "web-next-b", true), rcPod(next, "web-next-c", false),
		event("e1", "ReplicationController", "web-next", "RollingUpdate", "Scaling web-next up to 3", 1, at(2)),
		event("e2", "ReplicationController", "web", "RollingUpdate", "Scaling web down to 2", 1, at(1)),
	}
	return old, next, objs
}

func TestRCUpdateMidRollout(t *testing.T) {
	_, _, objs := midUpdate()
	c := rcLoaded(objs...)
	for _, name := range []string{"web", "web-next"} {
		v, ok := c.RCUpdate(shop, name)
		if !ok || !v.Updating || v.Phase != model.RCPhaseRollout || v.Rollback {
			t.Fatalf("%s: ok %v, view %+v, want a rollout in progress", name, ok, v)
		}
		if v.Old.Name != "web" || v.Next.Name != "web-next" || v.Old.Desired != 2 || v.Next.Desired != 3 || v.Next.Ready != 2 || v.Desired != 4 || v.Original != 4 {
			t.Errorf("%s: controllers %+v / %+v, desired %d", name, v.Old, v.Next, v.Desired)
		}
		if len(v.Old.Pods) != 2 || len(v.Next.Pods) != 3 || v.Next.Pods[2].State != cluster.PodNotReady {
			t.Errorf("%s: pods %v / %v", name, v.Old.Pods, v.Next.Pods)
		}
		// 5 pods asked for, the most maxSurge 1 allows; 4 available.
		if v.Surge != (model.Headroom{Used: 5, Limit: 5}) || v.Unavailable != (model.Headroom{Used: 0, Limit: 0}) {
			t.Errorf("%s: surge %+v unavailable %+v", name, v.Surge, v.Unavailable)
		}
		wantAnn := []string{"desired-replicas=4", "rollscope.dev/rename-to=web", "update-source-id=web:uid-web"}
		if !reflect.DeepEqual(v.Next.Annotations, wantAnn) {
			t.Errorf("%s: next annotations %v, want %v", name, v.Next.Annotations, wantAnn)
		}
		if len(v.Events) != 2 || v.Events[0].Message != "Scaling web down to 2" {
			t.Errorf("%s: events %+v, want both controllers' oldest first", name, v.Events)
		}
	}
}

func TestRCUpdateRenameAndDone(t *testing.T) {
	_, next, objs := midUpdate()
	c := rcLoaded(objs...)
	// The old controller is deleted: the view of "web" follows the rename.
	c.Apply(cluster.Batch{At: at(3), Deleted: []cluster.ObjectRef{{Kind: "ReplicationController", Namespace: shop, Name: "web"}}, Watch: synced})
	v, ok := c.RCUpdate(shop, "web")
	if !ok || v.Phase != model.RCPhaseRename || v.Next.Name != "web-next" {
		t.Fatalf("after the old controller went: ok %v, %+v; want the rename phase with web-next", ok, v)
	}
	done := rc("web", "web:v2", 4, 4, nil)
	done.ResourceVersion = "9"
	c.Apply(cluster.Batch{At: at(4), Objects: []runtime.Object{done}, Deleted: []cluster.ObjectRef{{Kind: "ReplicationController", Namespace: shop, Name: next.Name}}, Watch: synced})
	v, ok = c.RCUpdate(shop, "web")
	if !ok || v.Updating || v.Phase != model.RCPhaseDone || v.Old.Images[0] != "web:v2" || v.Next.Name != "" {
		t.Errorf("after the rename: ok %v, %+v; want web alone on web:v2, done", ok, v)
	}
	if _, ok := c.RCUpdate(shop, "nope"); ok {
		t.Error("an unknown controller has a view")
	}
}

func TestRCUpdateRequestLimits(t *testing.T) {
	old, _, objs := midUpdate()
	old.Annotations[model.RCRequestAnnotation] = `{"image":"web:v2","maxSurge":2,"maxUnavailable":1}`
	v, _ := rcLoaded(objs...).RCUpdate(shop, "web")
	if v.Request == nil || v.Request.Image != "web:v2" || v.Limits.MaxSurge != 2 || v.Limits.MaxUnavailable != 1 || v.Surge.Limit != 6 {
		t.Errorf("request %+v limits %+v surge %+v, want the request's 2 and 1", v.Request, v.Limits, v.Surge)
	}
}
