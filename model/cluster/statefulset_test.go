package cluster_test

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/cluster"
)

func workloadTemplate(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "db"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "db", Image: image}}},
	}
}

func revisionOf(t *testing.T, owner *appsv1.StatefulSet, image string, n int64) *appsv1.ControllerRevision {
	t.Helper()
	s := owner.DeepCopy()
	s.Spec.Template = workloadTemplate(image)
	patch, err := model.TemplatePatch(s)
	if err != nil {
		t.Fatal(err)
	}
	name := model.RevisionName(owner.Name, model.RevisionHash(patch, nil))
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", ResourceVersion: "1",
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(owner, appsv1.SchemeGroupVersion.WithKind("StatefulSet"))}},
		Data: runtime.RawExtension{Raw: patch}, Revision: n,
	}
}

func statefulPod(set *appsv1.StatefulSet, ordinal int, revision string, ready bool) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: model.StatefulPodName(set.Name, ordinal), Namespace: "shop", ResourceVersion: "1",
			Labels:          map[string]string{"app": "db", model.RevisionHashLabel: revision},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"))}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning},
	}
	if ready {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	}
	return p
}

func TestStatefulSetViewMarksThePartitionAndTheUpdatedOrdinals(t *testing.T) {
	replicas, partition := int32(5), int32(3)
	set := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "shop", UID: types.UID("db-uid"), Generation: 2, ResourceVersion: "1"},
		Spec: appsv1.StatefulSetSpec{Replicas: &replicas, Template: workloadTemplate("db:2"), PodManagementPolicy: appsv1.OrderedReadyPodManagement,
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}}},
	}
	old, cur := revisionOf(t, set, "db:1", 1), revisionOf(t, set, "db:2", 2)
	set.Status = appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 5, ReadyReplicas: 4, AvailableReplicas: 4, CurrentReplicas: 3, UpdatedReplicas: 2,
		CurrentRevision: old.Name, UpdateRevision: cur.Name}
	objs := []runtime.Object{set, old, cur}
	for ord := range 5 {
		rev := old.Name
		if ord >= 3 {
			rev = cur.Name
		}
		objs = append(objs, statefulPod(set, ord, rev, ord != 3))
	}
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{Objects: objs, Watch: cluster.WatchStatus{Synced: true, Connected: true}})
	v, ok := c.StatefulSet("shop", "db", time.Now())
	if !ok {
		t.Fatal("no view")
	}
	var strip []string
	for _, o := range v.Ordinals {
		s := "old"
		if o.Updated {
			s = "new"
		}
		if o.BelowPartition {
			s += "|held"
		}
		strip = append(strip, s)
	}
	want := []string{"old|held", "old|held", "old|held", "new", "new"}
	if len(strip) != 5 || strip[0] != want[0] || strip[2] != want[2] || strip[3] != want[3] || strip[4] != want[4] {
		t.Errorf("strip %v, want %v", strip, want)
	}
	if v.Unavailable != (model.Headroom{Used: 1, Limit: 1}) {
		t.Errorf("unavailable %+v", v.Unavailable)
	}
	if v.Status != "Waiting for 1 pods to be ready..." || v.Done {
		t.Errorf("status %q done %v", v.Status, v.Done)
	}
	if len(v.History) != 2 || v.History[0].Current || !v.History[1].Current || v.History[0].Images[0] != "db=db:1" {
		t.Fatalf("history %+v", v.History)
	}
	var minus, plus string
	for _, l := range v.History[0].Diff {
		switch l.Op {
		case '-':
			minus += l.Text
		case '+':
			plus += l.Text
		}
	}
	if minus == "" || plus == "" || !strings.Contains(minus, "db:2") || !strings.Contains(plus, "db:1") {
		t.Errorf("diff of revision 1: -%q +%q", minus, plus)
	}
	if ws := c.Workloads(); len(ws) != 1 || ws[0].Kind != "statefulset" || ws[0].Done {
		t.Errorf("workloads %+v", ws)
	}
	c.Apply(cluster.Batch{Deleted: []cluster.ObjectRef{{Kind: "StatefulSet", Namespace: "shop", Name: "db"}}})
	if _, ok := c.StatefulSet("shop", "db", time.Now()); ok {
		t.Error("a deleted StatefulSet still has a view")
	}
}
