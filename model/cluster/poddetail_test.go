package cluster_test

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// The pod detail is what kubectl describe pod shows: containers with their
// state and last state, conditions, and the pod's own events, oldest first.
func TestPodDetail(t *testing.T) {
	m := newMidRollout()
	p := runningPod(m.newRS, "c", "node-3")
	p.ResourceVersion = "1"
	p.Labels = map[string]string{"app": "frontend", "pod-template-hash": "v2"}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", LastTransitionTime: metav1.NewTime(at(11))}}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{
		Name: "web", Image: "web:v2", RestartCount: 4,
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 40s"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", StartedAt: metav1.NewTime(at(11)), FinishedAt: metav1.NewTime(at(12))}},
	}}
	backOff := warning("c.2", p.Name, "BackOff", "Back-off restarting failed container web", 4, 12)
	backOff.InvolvedObject.UID = p.UID
	pulled := event("c.1", "Pod", p.Name, "Pulled", "Successfully pulled image", 1, at(11))
	pulled.InvolvedObject.UID = p.UID
	earlier := event("c.0", "Pod", p.Name, "Killing", "an earlier pod of the same name", 1, at(1))
	earlier.InvolvedObject.UID = "uid-of-an-earlier-pod"
	c := loaded(append(m.objects(), p, backOff, pulled, earlier)...)

	d, ok := c.Pod(shop, p.Name)
	if !ok {
		t.Fatalf("Pod(%s) not found", p.Name)
	}
	if d.Owner != "ReplicaSet/frontend-v2" || d.Node != "node-3" || d.Status != "Running" ||
		!reflect.DeepEqual(d.Labels, []string{"app=frontend", "pod-template-hash=v2"}) {
		t.Errorf("detail = %+v", d)
	}
	wantC := cluster.ContainerDetail{Name: "web", Image: "web:v2", Restarts: 4,
		State:     cluster.ContainerStateRow{Kind: "Waiting", Reason: "CrashLoopBackOff", Message: "back-off 40s"},
		LastState: cluster.ContainerStateRow{Kind: "Terminated", Reason: "Error", ExitCode: 1, Started: at(11), Finished: at(12)},
	}
	if len(d.Containers) != 1 || !reflect.DeepEqual(d.Containers[0], wantC) {
		t.Errorf("containers = %+v, want [%+v]", d.Containers, wantC)
	}
	if len(d.Conditions) != 1 || d.Conditions[0].Reason != "ContainersNotReady" || !d.Conditions[0].Since.Equal(at(11)) {
		t.Errorf("conditions = %+v", d.Conditions)
	}
	var reasons []string
	for _, e := range d.Events {
		reasons = append(reasons, e.Reason)
	}
	if !reflect.DeepEqual(reasons, []string{"Pulled", "BackOff"}) || d.Events[1].Count != 4 || d.Events[1].Type != "Warning" {
		t.Errorf("events = %+v, want Pulled then BackOff (x4), and not the earlier pod's", d.Events)
	}

	// Deleted: Terminating, with its grace period.
	gone := p.DeepCopy()
	gone.ResourceVersion = "2"
	gone.DeletionTimestamp = &metav1.Time{Time: at(13)}
	gone.DeletionGracePeriodSeconds = ref(int64(30))
	c.Apply(cluster.Batch{At: at(13), Objects: []runtime.Object{gone}, Watch: synced})
	if d, _ := c.Pod(shop, p.Name); d.Status != "Terminating" || d.Grace != 30 || !d.Deleting.Equal(at(13)) {
		t.Errorf("deleted pod: status %q grace %d deleting %v", d.Status, d.Grace, d.Deleting)
	}
	if _, ok := c.Pod(shop, "nope"); ok {
		t.Error("a pod not in the picture was found")
	}
}
