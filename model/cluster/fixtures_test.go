package cluster_test

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/cluster"
)

// Hand-built objects for the Cluster tests: a "shop" namespace, deployments
// whose UIDs are "uid-" + name, and helpers to own ReplicaSets and pods
// through controller references as the controllers do.

const shop = "shop"

var t0 = time.Date(2026, 11, 21, 7, 0, 0, 0, time.UTC)

func at(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }

func controlledBy(kind, name string, uid types.UID) []metav1.OwnerReference {
	yes := true
	return []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: name, UID: uid, Controller: &yes}}
}

func podTemplate(app, image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "web", Image: image, Ports: []corev1.ContainerPort{{ContainerPort: 8080}}},
		}},
	}
}

// deployment is a RollingUpdate deployment at revision with maxSurge and
// maxUnavailable of 25%, its spec observed.
func deployment(name, image string, replicas int32, revision string) *appsv1.Deployment {
	pct := intstr.FromString("25%")
	deadline := int32(600)
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: shop, Name: name, UID: types.UID("uid-" + name), Generation: 2,
			Annotations: map[string]string{model.RevisionAnnotation: revision},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: podTemplate(name, image),
			Strategy: appsv1.DeploymentStrategy{
				Type:          appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &pct, MaxUnavailable: &pct},
			},
			ProgressDeadlineSeconds: &deadline,
		},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 2},
	}
}

// ownedReplicaSet is d's ReplicaSet for image at revision, with replicas
// asked for and available of them available.
func ownedReplicaSet(d *appsv1.Deployment, hash, revision, image string, replicas, available int32, created time.Time) *appsv1.ReplicaSet {
	name := d.Name + "-" + hash
	t := podTemplate(d.Name, image)
	t.Labels[model.PodTemplateHashLabel] = hash
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: d.Namespace, Name: name, UID: types.UID("uid-" + name),
			CreationTimestamp: metav1.NewTime(created),
			Labels:            map[string]string{"app": d.Name, model.PodTemplateHashLabel: hash},
			Annotations:       map[string]string{model.RevisionAnnotation: revision},
			OwnerReferences:   controlledBy("Deployment", d.Name, d.UID),
		},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Template: t},
		Status: appsv1.ReplicaSetStatus{
			Replicas: replicas, ReadyReplicas: available, AvailableReplicas: available,
		},
	}
}

// runningPod is a ready pod of rs on node.
func runningPod(rs *appsv1.ReplicaSet, suffix, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: rs.Namespace, Name: rs.Name + "-" + suffix, UID: types.UID("uid-" + rs.Name + "-" + suffix),
			CreationTimestamp: rs.CreationTimestamp,
			OwnerReferences:   controlledBy("ReplicaSet", rs.Name, rs.UID),
		},
		Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "web", Image: rs.Spec.Template.Spec.Containers[0].Image}}},
		Status: corev1.PodStatus{
			Phase:             corev1.PodRunning,
			Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "web", Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}},
		},
	}
}

// creatingPod is a pod of rs whose container is still being created.
func creatingPod(rs *appsv1.ReplicaSet, suffix, node string) *corev1.Pod {
	p := runningPod(rs, suffix, node)
	p.Status.Phase = corev1.PodPending
	p.Status.Conditions = nil
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", State: corev1.ContainerState{
		Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"},
	}}}
	return p
}

func groupNode(name, group, spec string, created time.Time) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, CreationTimestamp: metav1.NewTime(created),
			Labels:      map[string]string{model.NodeGroupLabel: group},
			Annotations: map[string]string{model.NodeSpecAnnotation: spec},
		},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
	}
}

func event(name, kind, object, reason, message string, count int32, last time.Time) *corev1.Event {
	return &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Namespace: shop, Name: name},
		InvolvedObject: corev1.ObjectReference{Kind: kind, Namespace: shop, Name: object},
		Reason:         reason, Message: message, Count: count, Type: corev1.EventTypeNormal,
		LastTimestamp: metav1.NewTime(last),
	}
}

var synced = cluster.WatchStatus{Synced: true, Connected: true, Since: t0}

// midRollout is frontend halfway from web:v1 (revision 1) to web:v2
// (revision 2): 4 replicas, the old ReplicaSet at 3 of them and the new at 2,
// so the surge budget (4 + 1) is spent.
type midRollout struct {
	d            *appsv1.Deployment
	oldRS, newRS *appsv1.ReplicaSet
	pods         []*corev1.Pod
	nodes        []*corev1.Node
}

func newMidRollout() midRollout {
	d := deployment("frontend", "web:v2", 4, "2")
	d.Status = appsv1.DeploymentStatus{
		ObservedGeneration: 2, Replicas: 5, UpdatedReplicas: 2, ReadyReplicas: 4, AvailableReplicas: 4,
		Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "ReplicaSetUpdated", Message: `ReplicaSet "frontend-v2" is progressing.`},
		},
	}
	oldRS := ownedReplicaSet(d, "v1", "1", "web:v1", 3, 3, at(0))
	newRS := ownedReplicaSet(d, "v2", "2", "web:v2", 2, 1, at(10))
	m := midRollout{d: d, oldRS: oldRS, newRS: newRS}
	m.pods = []*corev1.Pod{
		runningPod(oldRS, "a", "node-1"), runningPod(oldRS, "b", "node-2"), runningPod(oldRS, "c", "node-1"),
		runningPod(newRS, "a", "node-2"), creatingPod(newRS, "b", "node-3"),
	}
	m.nodes = []*corev1.Node{
		groupNode("node-1", "nodes", "v1", at(0)), groupNode("node-2", "nodes", "v1", at(0)),
		groupNode("node-3", "nodes", "v2", at(5)),
	}
	return m
}

func (m midRollout) objects() []runtime.Object {
	out := []runtime.Object{m.d, m.oldRS, m.newRS}
	for _, p := range m.pods {
		out = append(out, p)
	}
	for _, n := range m.nodes {
		out = append(out, n)
	}
	return out
}
