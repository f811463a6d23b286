package cluster

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestPodRowState(t *testing.T) {
	waiting := func(reason string) corev1.ContainerState {
		return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}
	}
	running := corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
	readyCond := []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	now := metav1.Now()
	cases := []struct {
		name       string
		node       string
		phase      corev1.PodPhase
		deleting   bool
		conditions []corev1.PodCondition
		statuses   []corev1.ContainerStatus
		init       []corev1.ContainerStatus
		podReason  string
		want       PodState
		reason     string
		ready      string
		restarts   int32
	}{
		{name: "ready", node: "n1", phase: corev1.PodRunning, conditions: readyCond,
			statuses: []corev1.ContainerStatus{{Ready: true, State: running}, {Ready: true, State: running, RestartCount: 2}},
			want:     PodReady, ready: "2/2", restarts: 2},
		{name: "running, not ready", node: "n1", phase: corev1.PodRunning,
			statuses: []corev1.ContainerStatus{{Ready: true, State: running}, {State: running}},
			want:     PodNotReady, ready: "1/2"},
		{name: "unscheduled", phase: corev1.PodPending,
			conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable"}},
			want:       PodPending, reason: "Unschedulable", ready: "0/2"},
		{name: "scheduled, pending without container creation", node: "n1", phase: corev1.PodPending,
			init: []corev1.ContainerStatus{{State: waiting("PodInitializing")}},
			want: PodPending, reason: "PodInitializing", ready: "0/2"},
		{name: "creating", node: "n1", phase: corev1.PodPending,
			statuses: []corev1.ContainerStatus{{State: waiting("ContainerCreating")}, {State: waiting("ContainerCreating")}},
			want:     PodCreating, reason: "ContainerCreating", ready: "0/2"},
		{name: "crash loop beats creating", node: "n1", phase: corev1.PodRunning,
			statuses: []corev1.ContainerStatus{{State: waiting("ContainerCreating")}, {State: waiting("CrashLoopBackOff"), RestartCount: 5}},
			want:     PodCrashLoop, reason: "CrashLoopBackOff", ready: "0/2", restarts: 5},
		{name: "image pull back-off", node: "n1", phase: corev1.PodPending,
			statuses: []corev1.ContainerStatus{{State: waiting("ImagePullBackOff")}},
			want:     PodCrashLoop, reason: "ImagePullBackOff", ready: "0/2"},
		{name: "image pull error in an init container", node: "n1", phase: corev1.PodPending,
			init: []corev1.ContainerStatus{{State: waiting("ErrImagePull")}},
			want: PodCrashLoop, reason: "ErrImagePull", ready: "0/2"},
		{name: "failed beats crash loop", node: "n1", phase: corev1.PodFailed, podReason: "Evicted",
			statuses: []corev1.ContainerStatus{{State: waiting("CrashLoopBackOff")}},
			want:     PodFailed, reason: "CrashLoopBackOff", ready: "0/2"},
		{name: "evicted", node: "n1", phase: corev1.PodFailed, podReason: "Evicted",
			want: PodFailed, reason: "Evicted", ready: "0/2"},
		{name: "terminated container", node: "n1", phase: corev1.PodFailed,
			statuses: []corev1.ContainerStatus{{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137}}}},
			want:     PodFailed, reason: "OOMKilled", ready: "0/2"},
		{name: "clean init container says nothing", node: "n1", phase: corev1.PodRunning, conditions: readyCond,
			init:     []corev1.ContainerStatus{{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed"}}}},
			statuses: []corev1.ContainerStatus{{Ready: true, State: running}, {Ready: true, State: running}},
			want:     PodReady, ready: "2/2"},
		{name: "terminating beats everything", node: "n1", phase: corev1.PodFailed, deleting: true, conditions: readyCond,
			statuses: []corev1.ContainerStatus{{State: waiting("CrashLoopBackOff")}},
			want:     PodTerminating, reason: "CrashLoopBackOff", ready: "0/2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: "web-1"},
				Spec:       corev1.PodSpec{NodeName: tc.node, Containers: []corev1.Container{{Name: "web"}, {Name: "proxy"}}},
				Status: corev1.PodStatus{
					Phase: tc.phase, Conditions: tc.conditions, Reason: tc.podReason,
					ContainerStatuses: tc.statuses, InitContainerStatuses: tc.init,
				},
			}
			if tc.deleting {
				p.DeletionTimestamp = &now
			}
			row := podRow(p)
			if row.State != tc.want || row.Reason != tc.reason || row.Ready != tc.ready || row.Restarts != tc.restarts {
				t.Errorf("podRow = state %v reason %q ready %q restarts %d; want state %v reason %q ready %q restarts %d",
					row.State, row.Reason, row.Ready, row.Restarts, tc.want, tc.reason, tc.ready, tc.restarts)
			}
			if row.Node != tc.node || row.Phase != string(tc.phase) || row.Name != "web-1" {
				t.Errorf("podRow = name %q node %q phase %q, want web-1, %q, %q", row.Name, row.Node, row.Phase, tc.node, tc.phase)
			}
		})
	}
}

// TestTallyPods: a ReplicaSet's replicas are its active pods; those being
// deleted and those that finished are counted apart.
func TestTallyPods(t *testing.T) {
	pods := []PodRow{{State: PodReady}, {State: PodNotReady}, {State: PodPending}, {State: PodTerminating}, {State: PodTerminating}, {State: PodFailed}}
	if got, want := TallyPods(pods), (PodTally{Active: 3, Terminating: 2, Finished: 1}); got != want {
		t.Errorf("TallyPods = %+v, want %+v", got, want)
	}
}
