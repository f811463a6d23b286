package trace_test

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	"rollscope/engine/nodegroup"
	"rollscope/model"
)

// start is the virtual time a test run begins at.
var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(seconds float64) time.Time {
	return start.Add(time.Duration(seconds * float64(time.Second)))
}

var groups = []nodegroup.Group{{Name: "nodes", Size: 2, Spec: "v2", Capacity: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("30")}}}

func node(name, spec string, ready, unschedulable bool) *corev1.Node {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Labels:      map[string]string{model.NodeGroupLabel: "nodes"},
			Annotations: map[string]string{model.NodeSpecAnnotation: spec},
		},
		Spec:   corev1.NodeSpec{Unschedulable: unschedulable},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: status}}},
	}
}

func deployment(spec, replicas, updated, ready, available, unavailable int32, paused bool, progressing string, availableStatus corev1.ConditionStatus) *appsv1.Deployment {
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "frontend", Namespace: "default"},
		Spec:       appsv1.DeploymentSpec{Replicas: ptr.To(spec), Paused: paused},
		Status: appsv1.DeploymentStatus{
			Replicas: replicas, UpdatedReplicas: updated, ReadyReplicas: ready,
			AvailableReplicas: available, UnavailableReplicas: unavailable,
		},
	}
	if availableStatus != "" {
		d.Status.Conditions = append(d.Status.Conditions, appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: availableStatus, Reason: "MinimumReplicasAvailable"})
	}
	if progressing != "" {
		d.Status.Conditions = append(d.Status.Conditions, appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: progressing})
	}
	return d
}

func replicaSet(name, revision string, spec, replicas, ready, available int32) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "default",
			Annotations: map[string]string{"deployment.kubernetes.io/revision": revision},
			OwnerReferences: []metav1.OwnerReference{
				{APIVersion: "apps/v1", Kind: "Deployment", Name: "frontend", UID: "d-1", Controller: ptr.To(true)},
			},
		},
		Spec:   appsv1.ReplicaSetSpec{Replicas: ptr.To(spec)},
		Status: appsv1.ReplicaSetStatus{Replicas: replicas, ReadyReplicas: ready, AvailableReplicas: available},
	}
}

func replicationController(name string, spec, replicas, ready int32) *corev1.ReplicationController {
	return &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec:       corev1.ReplicationControllerSpec{Replicas: ptr.To(spec)},
		Status:     corev1.ReplicationControllerStatus{Replicas: replicas, ReadyReplicas: ready, AvailableReplicas: ready},
	}
}

func pod(name, nodeName string, phase corev1.PodPhase) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec:       corev1.PodSpec{NodeName: nodeName},
		Status:     corev1.PodStatus{Phase: phase},
	}
}

func terminating(p *corev1.Pod) *corev1.Pod {
	p.DeletionTimestamp = ptr.To(metav1.NewTime(start))
	return p
}

func event(name, kind, object, reason, message string) *corev1.Event {
	return &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: name, Namespace: "default"},
		InvolvedObject: corev1.ObjectReference{Kind: kind, Name: object, Namespace: "default"},
		Reason:         reason,
		Message:        message,
		Count:          1,
	}
}

// step is one call on a Writer.
type step struct {
	t      float64
	ev     watch.EventType
	obj    runtime.Object
	action [3]string // kind, target, result, for an action step
	end    string
}

func added(t float64, o runtime.Object) step    { return step{t: t, ev: watch.Added, obj: o} }
func modified(t float64, o runtime.Object) step { return step{t: t, ev: watch.Modified, obj: o} }
func deleted(t float64, o runtime.Object) step  { return step{t: t, ev: watch.Deleted, obj: o} }

// rollout is a hand-built slice of a rollout: two nodes, a Deployment moving
// from one ReplicaSet to another, its pods landing on nodes, events, an
// action, a cordon and the end of the run. Steps that change nothing a line
// shows are included on purpose: they must not write.
var rollout = []step{
	added(0, node("nodes-0", "v2", false, false)),
	added(0, node("nodes-1", "v1", true, false)),
	modified(0.25, node("nodes-0", "v2", true, false)),
	added(1, deployment(3, 0, 0, 0, 0, 0, false, "", "")),
	added(1, replicaSet("frontend-6b9d5", "1", 3, 0, 0, 0)),
	added(1, event("frontend.1", "Deployment", "frontend", "ScalingReplicaSet", "Scaled up replica set frontend-6b9d5 from 0 to 3")),
	added(1.001, pod("frontend-6b9d5-a", "", corev1.PodPending)),
	modified(1.5, pod("frontend-6b9d5-a", "nodes-0", corev1.PodPending)),
	added(1.5, pod("frontend-6b9d5-b", "nodes-1", corev1.PodPending)),
	added(1.5, pod("frontend-6b9d5-c", "nodes-0", corev1.PodPending)),
	modified(4, pod("frontend-6b9d5-a", "nodes-0", corev1.PodRunning)), // same binding: no node line
	modified(5.2, replicaSet("frontend-6b9d5", "1", 3, 3, 3, 3)),
	modified(5.2, replicaSet("frontend-6b9d5", "1", 3, 3, 3, 3)), // no change: no line
	modified(5.2, deployment(3, 3, 3, 3, 3, 0, false, "NewReplicaSetAvailable", corev1.ConditionTrue)),
	step{t: 60, action: [3]string{"setImage", "deployment/frontend", "ok"}},
	modified(60, deployment(3, 3, 0, 3, 3, 0, false, "NewReplicaSetAvailable", corev1.ConditionTrue)),
	added(60, replicaSet("frontend-7c4f8", "2", 1, 0, 0, 0)),
	modified(60, event("frontend.1", "Deployment", "frontend", "ScalingReplicaSet", "Scaled up replica set frontend-6b9d5 from 0 to 3")), // count bump only
	added(60, event("frontend.2", "Deployment", "frontend", "ScalingReplicaSet", "Scaled up replica set frontend-7c4f8 from 0 to 1")),
	added(60, event("frontend-6b9d5-a.1", "Pod", "frontend-6b9d5-a", "Pulled", "pod events are not traced")),
	modified(61, terminating(pod("frontend-6b9d5-c", "nodes-0", corev1.PodRunning))),
	step{t: 62, action: [3]string{"pause", "deployment/frontend", "cannot pause: deployment \"frontend\" not found"}},
	modified(63, deployment(3, 4, 1, 3, 3, 1, true, "DeploymentPaused", corev1.ConditionTrue)),
	added(70, replicationController("legacy", 2, 0, 0)),
	modified(75, replicationController("legacy", 2, 2, 2)),
	added(75, event("legacy.1", "ReplicationController", "legacy", "SuccessfulCreate", "Created pod: legacy-x7k2p")),
	added(80, event("api.1", "PodDisruptionBudget", "api", "NoPods", "No matching pods found")),
	modified(90, node("nodes-1", "v1", true, true)),
	added(90, event("nodes-1.1", "Node", "nodes-1", "NodeNotSchedulable", "Node nodes-1 status is now: NodeNotSchedulable")),
	deleted(91, pod("frontend-6b9d5-c", "nodes-0", corev1.PodRunning)), // already inactive: no line
	deleted(92, pod("frontend-6b9d5-b", "nodes-1", corev1.PodRunning)),
	deleted(120, replicaSet("frontend-6b9d5", "1", 0, 0, 0, 0)),
	deleted(121, node("nodes-1", "v1", true, true)),
	{t: 812.4, end: "quiescent"},
}
