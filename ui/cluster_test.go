package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// The console against the real cluster.Cluster: hand-made objects go in as a
// watch batch, as the bridge would deliver them, and the screen is checked.

func owner(kind, name string) []metav1.OwnerReference {
	yes := true
	return []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: name, UID: types.UID("uid-" + name), Controller: &yes}}
}

func template(image string, hash string) corev1.PodTemplateSpec {
	labels := map[string]string{"app": "api"}
	if hash != "" {
		labels[model.PodTemplateHashLabel] = hash
	}
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "api", Image: image}}},
	}
}

func apiReplicaSet(hash, rev, image, cause string, replicas, ready int32, created time.Time) *appsv1.ReplicaSet {
	name := "api-" + hash
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, UID: types.UID("uid-" + name),
			CreationTimestamp: metav1.NewTime(created),
			Labels:            map[string]string{"app": "api", model.PodTemplateHashLabel: hash},
			Annotations:       map[string]string{model.RevisionAnnotation: rev, model.ChangeCauseAnnotation: cause},
			OwnerReferences:   owner("Deployment", "api")},
		Spec:   appsv1.ReplicaSetSpec{Replicas: &replicas, Template: template(image, hash)},
		Status: appsv1.ReplicaSetStatus{Replicas: replicas, ReadyReplicas: ready, AvailableReplicas: ready},
	}
}

func apiPod(rs *appsv1.ReplicaSet, suffix, node string, shape func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: rs.Name + "-" + suffix, UID: types.UID("uid-" + rs.Name + suffix),
			CreationTimestamp: rs.CreationTimestamp, OwnerReferences: owner("ReplicaSet", rs.Name)},
		Spec: corev1.PodSpec{NodeName: node, Containers: rs.Spec.Template.Spec.Containers},
		Status: corev1.PodStatus{Phase: corev1.PodRunning,
			Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "api", Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}},
	}
	if shape != nil {
		shape(p)
	}
	return p
}

func crashLooping(p *corev1.Pod) {
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "api", RestartCount: 5,
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}
}

func unschedulable(p *corev1.Pod) {
	p.Spec.NodeName = ""
	p.Status = corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{
		Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable",
		Message: "0/3 nodes are available"}}}
}

func readyNode(name string, cordoned bool) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(t0.Add(-48 * time.Hour))},
		Spec:   corev1.NodeSpec{Unschedulable: cordoned},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}}}
}

// stuckRollout is api moving from api:1.4 to api:1.5 where the new pods
// crash: 4 replicas, maxSurge 1, maxUnavailable 0, so the surge budget is
// spent and the rollout cannot go on.
func stuckRollout() []runtime.Object {
	replicas, deadline := int32(4), int32(600)
	surge, unavailable := intstr.FromInt32(1), intstr.FromInt32(0)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "api", UID: "uid-api", Generation: 3,
			Annotations: map[string]string{model.RevisionAnnotation: "2"}},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, ProgressDeadlineSeconds: &deadline, MinReadySeconds: 10,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "api"}},
			Template: template("api:1.5", ""),
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}}},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 5, UpdatedReplicas: 1, ReadyReplicas: 4,
			AvailableReplicas: 4, Conditions: []appsv1.DeploymentCondition{
				{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"},
				{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "ReplicaSetUpdated"}}},
	}
	oldRS := apiReplicaSet("6d4f8b9c7", "1", "api:1.4", "initial", 4, 4, t0.Add(-5*time.Hour))
	newRS := apiReplicaSet("8c7b5d6f4", "2", "api:1.5", "kubectl set image deployment/api api=api:1.5", 1, 0, t0.Add(-3*time.Minute))
	objs := []runtime.Object{d, oldRS, newRS,
		apiPod(oldRS, "a1", "node-a", nil), apiPod(oldRS, "b2", "node-b", nil),
		apiPod(oldRS, "c3", "node-a", nil), apiPod(oldRS, "d4", "node-b", nil),
		apiPod(newRS, "e5", "node-b", crashLooping),
		readyNode("node-a", false), readyNode("node-b", false), readyNode("node-c", true),
	}
	return objs
}

func clusterModel(t testing.TB, w, h int) (Model, *cluster.Cluster) {
	t.Helper()
	c := cluster.NewCluster()
	m := New(Options{Cluster: c, Namespace: "shop", Context: "prod-eu", Clock: fixedClock})
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h},
		cluster.Batch{At: t0, Objects: stuckRollout(), Watch: cluster.WatchStatus{Synced: true, Connected: true, Since: t0}})
	return m, c
}

var _ Source = (*cluster.Cluster)(nil)

func TestClusterBatchReachesTheScreen(t *testing.T) {
	m, c := clusterModel(t, 160, 48)
	if m.s.Deployment != "api" {
		t.Fatalf("deployment = %q, want api chosen as the only one", m.s.Deployment)
	}
	out := plain(m)
	for _, want := range []string{"api-8c7b5d6f4", "new", "api:1.5", "surge", "5/5 full", "maxSurge 1",
		"node-c", "cordoned", "kubectl set image deployment/api"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
	checkFits(t, m.Render(), 160, 48)

	// The crash-looping pod is shown with its own glyph once its
	// ReplicaSet is selected.
	m = send(m, press("tab"))
	if out := plain(m); !strings.Contains(out, "✖ api-8c7b5d6f4-e5") || !strings.Contains(out, "CrashLoopBackOff") {
		t.Errorf("crash-looping pod not shown:\n%s", out)
	}

	// An unschedulable pod arrives in a later batch.
	rs := stuckRollout()[2].(*appsv1.ReplicaSet)
	m = send(m, cluster.Batch{At: t0.Add(time.Second), Objects: []runtime.Object{apiPod(rs, "f6", "", unschedulable)},
		Watch: c.Watch()})
	if out := plain(m); !strings.Contains(out, "○ api-8c7b5d6f4-f6") {
		t.Errorf("new pending pod not shown:\n%s", out)
	}
}

func TestClusterGolden(t *testing.T) {
	for _, sz := range sizes {
		m, _ := clusterModel(t, sz.w, sz.h)
		got := ansi.Strip(m.Render()) + "\n"
		checkFits(t, m.Render(), sz.w, sz.h)
		compareGolden(t, "cluster-"+draw.Itoa(sz.w)+"x"+draw.Itoa(sz.h), got)
	}
}
