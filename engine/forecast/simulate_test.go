package forecast_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/forecast"
	"rollscope/model"
)

// steady is a deployment of image app:v1 rolled out long ago: one
// ReplicaSet, every pod ready podReady after it was created.
func steady(replicas int32, surge, unavail string, minReady int32, podReady time.Duration) forecast.State {
	now := epoch.Add(time.Hour)
	su, un := intstr.Parse(surge), intstr.Parse(unavail)
	yes := true
	tpl := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app:v1"}}},
	}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "uid-web", Generation: 1,
			Annotations: map[string]string{model.RevisionAnnotation: "1"}},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, MinReadySeconds: minReady, Template: tpl,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &su, MaxUnavailable: &un}}},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: replicas, UpdatedReplicas: replicas,
			ReadyReplicas: replicas, AvailableReplicas: replicas},
	}
	rsTpl := *tpl.DeepCopy()
	rsTpl.Labels[model.PodTemplateHashLabel] = "v1"
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-v1", Namespace: "shop", UID: "uid-web-v1", Generation: 1,
			CreationTimestamp: metav1.NewTime(epoch),
			Labels:            map[string]string{"app": "web", model.PodTemplateHashLabel: "v1"},
			Annotations:       map[string]string{model.RevisionAnnotation: "1"},
			OwnerReferences:   []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: d.UID, Controller: &yes}}},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Template: rsTpl,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", model.PodTemplateHashLabel: "v1"}}},
		Status: appsv1.ReplicaSetStatus{ObservedGeneration: 1, Replicas: replicas, FullyLabeledReplicas: replicas,
			ReadyReplicas: replicas, AvailableReplicas: replicas},
	}
	st := forecast.State{Deployment: d, ReplicaSets: []*appsv1.ReplicaSet{rs}, Now: now}
	for i := range replicas {
		created := metav1.NewTime(epoch.Add(time.Duration(i) * time.Second))
		readyAt := metav1.NewTime(created.Add(podReady))
		st.Pods = append(st.Pods, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-v1-%d", i), Namespace: "shop", UID: types.UID(fmt.Sprintf("uid-pod-%d", i)),
				CreationTimestamp: created, Labels: rsTpl.Labels,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &yes}}},
			Spec: *rsTpl.Spec.DeepCopy(),
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: readyAt},
				{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: readyAt},
			}},
		})
	}
	return st
}

func simulate(t testing.TB, st forecast.State, change forecast.Change) (forecast.Forecast, error) {
	t.Helper()
	return forecast.Simulate(context.Background(), memapiBackend, st, forecast.ObservedReadiness(st.Deployment, st.Pods), change)
}

// 4 replicas at 25%/25% (one surge, one unavailable), pods ready 7s after
// creation and available 5s later: two waves of two pods; the dialog says
// where the 7s came from.
func TestSimulateASetImage(t *testing.T) {
	st := steady(4, "25%", "25%", 5, 7*time.Second)
	before := []any{st.Deployment.DeepCopy(), st.ReplicaSets[0].DeepCopy(), st.Pods[0].DeepCopy()}
	f, err := simulate(t, st, setImage("app:v2"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Steps != 6 || f.Waves != 2 || f.PeakPods != 5 || f.LowestAvailable != 3 || f.Outcome != forecast.Finished {
		t.Errorf("forecast %+v, want 6 steps in 2 waves, peak 5, lowest 3, finished", f)
	}
	// Two waves of 12s, plus the controllers' reaction windows.
	if f.Duration < 24*time.Second || f.Duration > 26*time.Second {
		t.Errorf("duration %v, want 24s and a few reaction windows", f.Duration)
	}
	want := "6 scaling steps, new pods ready in 2 waves, at most 5 pods, never fewer than 3 available, about "
	if s := f.String(); !strings.HasPrefix(s, want) || !strings.HasSuffix(s, "; pods ready 7s after creation (median of 4 observed) + minReadySeconds 5s") {
		t.Errorf("forecast says %q", s)
	}
	after := []any{st.Deployment, st.ReplicaSets[0], st.Pods[0]}
	for i := range before {
		if !equality.Semantic.DeepEqual(before[i], after[i]) {
			t.Errorf("the forecast changed the observed state it was given: %T", after[i])
		}
	}
}

// Without a pod seen becoming ready, the forecast says what it assumed.
func TestReadinessWhenNothingWasObserved(t *testing.T) {
	st := steady(3, "1", "0", 10, 7*time.Second)
	for _, p := range st.Pods {
		p.Status.Conditions = nil
	}
	r := forecast.ObservedReadiness(st.Deployment, st.Pods)
	if r.Ready != forecast.DefaultPodReady || r.Observed != 0 || r.Available() != forecast.DefaultPodReady+10*time.Second {
		t.Fatalf("readiness %+v", r)
	}
	if s := r.String(); s != "no pod readiness observed yet: pods assumed ready 5s after creation + minReadySeconds 10s" {
		t.Errorf("readiness says %q", s)
	}
}

// Pods slower than the progress deadline: the controller gives up, and the
// forecast says so instead of a duration.
func TestSimulatePastTheProgressDeadline(t *testing.T) {
	st := steady(3, "1", "0", 0, 90*time.Second)
	deadline := int32(60)
	st.Deployment.Spec.ProgressDeadlineSeconds = &deadline
	f, err := simulate(t, st, setImage("app:v2"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Outcome != forecast.DeadlineExceeded || !strings.Contains(f.String(), "progress deadline exceeded") {
		t.Fatalf("forecast %+v (%s), want the progress deadline exceeded", f, f)
	}
	if f.Duration < 60*time.Second || f.Duration > 90*time.Second {
		t.Errorf("gave up after %v, want soon after the 60s deadline", f.Duration)
	}
}

// A set image on a paused deployment rolls nothing until it is resumed.
func TestSimulateOnAPausedDeployment(t *testing.T) {
	st := steady(3, "1", "0", 0, 5*time.Second)
	st.Deployment.Spec.Paused = true
	if _, err := simulate(t, st, setImage("app:v2")); !errors.Is(err, forecast.ErrPausedCopy) {
		t.Fatalf("error %v, want ErrPausedCopy", err)
	}
}

// The engine's refusals come back as they are: an undo to a revision that
// is not there is no forecast.
func TestSimulateKeepsTheActionsRefusals(t *testing.T) {
	st := steady(3, "1", "0", 0, 5*time.Second)
	_, err := simulate(t, st, undoTo(9))
	if err == nil || !strings.Contains(err.Error(), "revision") {
		t.Fatalf("error %v, want the undo's refusal", err)
	}
	f, err := simulate(t, st, setImage("app:v1"))
	if err != nil || f.Steps != 0 || !strings.Contains(f.String(), "nothing to roll") {
		t.Fatalf("the image already running: %+v (%s), %v", f, f, err)
	}
}

// A pod still starting when the forecast begins needs only the rest of its
// time: new pods created 5s ago with 7s to ready are ready 2s in.
func TestSimulateCountsPodsAlreadyStarting(t *testing.T) {
	st := steady(2, "0", "1", 0, 7*time.Second)
	for _, p := range st.Pods {
		p.CreationTimestamp = metav1.NewTime(st.Now.Add(-5 * time.Second))
		p.Status.Conditions = nil
		p.Status.Phase = corev1.PodPending
	}
	st.ReplicaSets[0].Status.ReadyReplicas, st.ReplicaSets[0].Status.AvailableReplicas = 0, 0
	st.Deployment.Status.ReadyReplicas, st.Deployment.Status.AvailableReplicas = 0, 0
	f, err := forecast.Simulate(context.Background(), memapiBackend, st,
		forecast.Readiness{Ready: 7 * time.Second, Observed: 1}, func(context.Context, kubernetes.Interface, actions.Target) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if f.Outcome != forecast.Finished || f.Duration < 2*time.Second || f.Duration > 3*time.Second {
		t.Fatalf("forecast %+v, want finished 2s in", f)
	}
}

// benchmarkSimulate also reports the CPU time a forecast takes (cpu-ms/op):
// on a shared machine the wall time says more about the neighbours.
func benchmarkSimulate(b *testing.B, replicas int32) {
	st := steady(replicas, "25%", "25%", 5, 7*time.Second)
	start := cpuTime()
	for b.Loop() {
		f, err := simulate(b, st, setImage("app:v2"))
		if err != nil || f.Outcome != forecast.Finished {
			b.Fatal(f, err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The forecast runs while the confirmation dialog is open: it must answer
// within a frame or two (target: under 100 ms for 1,000 replicas).
func BenchmarkSimulate100(b *testing.B)  { benchmarkSimulate(b, 100) }
func BenchmarkSimulate1000(b *testing.B) { benchmarkSimulate(b, 1000) }

// At the largest Deployments the forecast is no longer within a frame: what
// the dialog keeps the operator waiting for its forecast line, growing with
// the replicas (the plan and y do not wait for it).
func BenchmarkSimulate10000(b *testing.B) { benchmarkSimulate(b, 10000) }
func BenchmarkSimulate30000(b *testing.B) { benchmarkSimulate(b, 30000) }

// Recreate: every old pod goes, then the new ones come up in one wave; the
// arithmetic, exact here, agrees.
func TestSimulateRecreateAgreesWithTheArithmetic(t *testing.T) {
	st := steady(5, "1", "0", 0, 6*time.Second)
	st.Deployment.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	f, err := simulate(t, st, setImage("app:v2"))
	if err != nil {
		t.Fatal(err)
	}
	ready := forecast.ObservedReadiness(st.Deployment, st.Pods)
	a, err := forecast.Rollout(forecast.ForTemplate(st.Deployment, st.ReplicaSets, nil, ready.Available()))
	if err != nil {
		t.Fatal(err)
	}
	if f.Steps != a.Steps || f.PeakPods != a.PeakPods || f.LowestAvailable != a.LowestAvailable || f.Outcome != forecast.Finished {
		t.Errorf("simulation %+v, arithmetic %+v", f, a)
	}
	if f.Duration < 6*time.Second || f.Duration > 8*time.Second {
		t.Errorf("duration %v, want one wave of 6s and a few reaction windows", f.Duration)
	}
}

// Back to the serving template while one new pod is still starting (an
// abort of a held canary): the starting pod is scaled away, whether or not
// the rehearsal's kubelet turns it ready first, so no new pod is waited for.
func TestSimulateBackToTheServingTemplateWaitsForNoPod(t *testing.T) {
	st := steady(6, "1", "0", 5, 7*time.Second)
	old := st.ReplicaSets[0]
	d := st.Deployment
	d.Spec.Template.Spec.Containers[0].Image = "app:v2"
	d.Annotations[model.RevisionAnnotation] = "2"
	one := int32(1)
	rs := old.DeepCopy()
	rs.Name, rs.UID = "web-v2", "uid-web-v2"
	rs.Annotations = map[string]string{model.RevisionAnnotation: "2"}
	rs.Labels[model.PodTemplateHashLabel] = "v2"
	rs.Spec.Selector.MatchLabels[model.PodTemplateHashLabel] = "v2"
	rs.Spec.Template.Labels[model.PodTemplateHashLabel] = "v2"
	rs.Spec.Template.Spec.Containers[0].Image = "app:v2"
	rs.Spec.Replicas = &one
	rs.Status = appsv1.ReplicaSetStatus{ObservedGeneration: 1, Replicas: 1, FullyLabeledReplicas: 1}
	st.ReplicaSets = append(st.ReplicaSets, rs)
	p := st.Pods[0].DeepCopy()
	p.Name, p.UID, p.Labels = "web-v2-0", "uid-pod-v2-0", rs.Spec.Template.Labels
	p.OwnerReferences[0].Name, p.OwnerReferences[0].UID = rs.Name, rs.UID
	p.Spec = *rs.Spec.Template.Spec.DeepCopy()
	// Created long enough ago that the rehearsal finds it due at once.
	p.CreationTimestamp = metav1.NewTime(st.Now.Add(-30 * time.Second))
	p.Status = corev1.PodStatus{Phase: corev1.PodRunning}
	st.Pods = append(st.Pods, p)
	d.Status.Replicas, d.Status.UpdatedReplicas = 7, 1

	f, err := simulate(t, st, setImage("app:v1"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Waves != 0 || f.Outcome != forecast.Finished || f.LowestAvailable != 6 {
		t.Errorf("forecast %+v, want no wave, never fewer than 6 available, finished", f)
	}
	if s := f.String(); !strings.Contains(s, "no new pod to wait for") {
		t.Errorf("forecast says %q", s)
	}
}
