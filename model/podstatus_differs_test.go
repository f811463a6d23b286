package model

import (
	"math/rand/v2"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// randomStatus draws a pod status from few values of every field the quick
// test reads and some it does not, nil and empty slices both included, so
// that equal, nearly equal and different pairs all come up.
func randomStatus(r *rand.Rand) corev1.PodStatus {
	pick := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	at := metav1.NewTime(time.Date(2026, 11, 24, 12, 0, r.IntN(2), 0, time.UTC))
	st := corev1.PodStatus{
		Phase: corev1.PodPhase(pick("", "Pending", "Running")),
		PodIP: pick("", "10.0.0.1"), HostIP: pick("", "192.168.0.1"),
		Message: pick("", "m"),
	}
	if r.IntN(2) == 0 {
		st.StartTime = &at
	}
	switch r.IntN(3) {
	case 0:
		st.Conditions = []corev1.PodCondition{}
	case 1:
		for range 1 + r.IntN(2) {
			st.Conditions = append(st.Conditions, corev1.PodCondition{
				Type: corev1.PodConditionType(pick("Ready", "Initialized")), Status: corev1.ConditionStatus(pick("True", "False")),
				Reason: pick("", "ContainersNotReady"), LastTransitionTime: at,
			})
		}
	}
	if r.IntN(3) > 0 {
		for range 1 + r.IntN(2) {
			c := corev1.ContainerStatus{Name: pick("app", "side"), Ready: r.IntN(2) == 0, RestartCount: int32(r.IntN(2)), Image: pick("a", "b")}
			if r.IntN(2) == 0 {
				started := r.IntN(2) == 0
				c.Started = &started
			}
			switch r.IntN(4) {
			case 0:
				c.State.Waiting = &corev1.ContainerStateWaiting{Reason: pick("ContainerCreating", "CrashLoopBackOff")}
			case 1:
				c.State.Running = &corev1.ContainerStateRunning{StartedAt: at}
			case 2:
				c.State.Terminated = &corev1.ContainerStateTerminated{ExitCode: int32(r.IntN(2)), FinishedAt: at}
			}
			st.ContainerStatuses = append(st.ContainerStatuses, c)
		}
	}
	return st
}

// PodStatusesDiffer never says two semantically equal statuses differ, and it
// catches most that do.
func TestPodStatusesDifferOnlyWhenSemanticEqualityDoes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 17))
	caught, differ := 0, 0
	for i := range 200000 {
		a, b := randomStatus(r), randomStatus(r)
		if r.IntN(4) == 0 {
			b = *a.DeepCopy()
		}
		equal := equality.Semantic.DeepEqual(&a, &b)
		quick := PodStatusesDiffer(&a, &b)
		if quick && equal {
			t.Fatalf("pair %d: said to differ but semantically equal:\n%+v\n%+v", i, a, b)
		}
		if !equal {
			differ++
			if quick {
				caught++
			}
		}
	}
	if caught*10 < differ*9 {
		t.Errorf("caught only %d of %d differing pairs", caught, differ)
	}
}
