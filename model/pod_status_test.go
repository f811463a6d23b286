package model

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestPodStatusWord holds the STATUS word to kubectl's printer (printPod in
// k8s.io/kubernetes pkg/printers/internalversion, cases of its TestPrintPod).
func TestPodStatusWord(t *testing.T) {
	deleted := metav1.Now()
	always := corev1.ContainerRestartPolicyAlways
	started := true
	running := corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
	ready := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue}
	tests := []struct {
		name string
		pod  corev1.Pod
		want string
	}{
		{"running and ready", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{ready},
			ContainerStatuses: []corev1.ContainerStatus{{Ready: true, State: running}}}}, "Running"},
		{"being deleted while running", corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &deleted},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{{Ready: true, State: running}}}}, "Terminating"},
		{"being deleted after it succeeded", corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &deleted},
			Status: corev1.PodStatus{Phase: corev1.PodSucceeded}}, "Succeeded"},
		{"deleted from a lost node", corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &deleted},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Reason: "NodeLost"}}, "Unknown"},
		{"evicted", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted"}}, "Evicted"},
		{"unschedulable", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending,
			Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable"}}}}, "Pending"},
		{"scheduling gated", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending,
			Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "SchedulingGated"}}}}, "SchedulingGated"},
		{"crash loop", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning,
			ContainerStatuses: []corev1.ContainerStatus{{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}}}, "CrashLoopBackOff"},
		{"the first container's reason wins", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{
			{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff"}}},
			{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}}}}}, "ImagePullBackOff"},
		{"killed by a signal", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodFailed,
			ContainerStatuses: []corev1.ContainerStatus{{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Signal: 9, ExitCode: 137}}}}}}, "Signal:9"},
		{"exit code without a reason", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodFailed,
			ContainerStatuses: []corev1.ContainerStatus{{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 3}}}}}}, "ExitCode:3"},
		{"one completed, one still running and ready", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{ready},
			ContainerStatuses: []corev1.ContainerStatus{{Ready: true, State: running},
				{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed"}}}}}}, "Running"},
		{"one completed, one running not ready", corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning,
			ContainerStatuses: []corev1.ContainerStatus{{Ready: true, State: running},
				{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed"}}}}}}, "NotReady"},
		{"init container waiting", corev1.Pod{Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "a"}, {Name: "b"}}},
			Status: corev1.PodStatus{Phase: corev1.PodPending, InitContainerStatuses: []corev1.ContainerStatus{
				{Name: "a", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0}}},
				{Name: "b", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "PodInitializing"}}}}}}, "Init:1/2"},
		{"init container crash loop", corev1.Pod{Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "a"}}},
			Status: corev1.PodStatus{Phase: corev1.PodPending, InitContainerStatuses: []corev1.ContainerStatus{
				{Name: "a", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}}}, "Init:CrashLoopBackOff"},
		{"init container failed", corev1.Pod{Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "a"}}},
			Status: corev1.PodStatus{Phase: corev1.PodPending, InitContainerStatuses: []corev1.ContainerStatus{
				{Name: "a", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}}}}}}, "Init:ExitCode:1"},
		{"sidecar started, main container running", corev1.Pod{Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "side", RestartPolicy: &always}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{ready},
				InitContainerStatuses: []corev1.ContainerStatus{{Name: "side", Started: &started, Ready: true, State: running}},
				ContainerStatuses:     []corev1.ContainerStatus{{Ready: true, State: running}}}}, "Running"},
	}
	for _, tc := range tests {
		if got := PodStatusWord(&tc.pod); got != tc.want {
			t.Errorf("%s: STATUS %q, kubectl says %q", tc.name, got, tc.want)
		}
	}
}

// BenchmarkPodStatusWord: the STATUS word is worked out once per pod
// update the watch delivers, beside the pod's row.
func BenchmarkPodStatusWord(b *testing.B) {
	ready := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue}
	p := &corev1.Pod{
		Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{ready},
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed"}}}},
			ContainerStatuses: []corev1.ContainerStatus{
				{Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
				{Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}},
	}
	for b.Loop() {
		if PodStatusWord(p) != "Running" {
			b.Fatal("wrong word")
		}
	}
}
