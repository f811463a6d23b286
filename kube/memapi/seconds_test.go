package memapi_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// Times come back in whole seconds, as a real API server stores them, so
// that minReadySeconds and progress deadlines are measured from the same
// instants on the embedded cluster as on a real one. An event's eventTime
// keeps its microseconds.
func TestTimesAreStoredToTheSecond(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.clock.Step(1500 * time.Millisecond)
	at := metav1.NewTime(epoch.Add(2700 * time.Millisecond))
	want := metav1.NewTime(epoch.Add(2 * time.Second))

	d, err := f.client.AppsV1().Deployments("default").Create(ctx, deployment("web", 1), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.CreationTimestamp.Time; !got.Equal(epoch.Add(time.Second)) {
		t.Errorf("creationTimestamp %v, want the whole second %v", got, epoch.Add(time.Second))
	}
	d.Status.Conditions = []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, LastUpdateTime: at, LastTransitionTime: at}}
	if d, err = f.client.AppsV1().Deployments("default").UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	stored, err := f.client.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*appsv1.Deployment{d, stored} {
		c := got.Status.Conditions[0]
		if !c.LastUpdateTime.Equal(&want) || !c.LastTransitionTime.Equal(&want) {
			t.Errorf("Progressing condition times %v / %v, want %v", c.LastUpdateTime, c.LastTransitionTime, want)
		}
	}

	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default"},
		Spec:       podTemplate("web", "nginx:1.25").Spec,
	}
	if pod, err = f.client.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: at}}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at}}}}
	if pod, err = f.client.CoreV1().Pods("default").UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if c := pod.Status.Conditions[0].LastTransitionTime; !c.Equal(&want) {
		t.Errorf("pod Ready since %v, want %v", c, want)
	}
	if s := pod.Status.ContainerStatuses[0].State.Running.StartedAt; !s.Equal(&want) {
		t.Errorf("container started at %v, want %v", s, want)
	}

	micro := metav1.NewMicroTime(epoch.Add(2700 * time.Millisecond))
	ev := &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "web.1", Namespace: "default"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-1"},
		Reason:         "Started", Message: "Started container web", Type: corev1.EventTypeNormal,
		FirstTimestamp: at, LastTimestamp: at, EventTime: micro,
		Source: corev1.EventSource{Component: "kubelet"}, ReportingController: "kubelet", ReportingInstance: "node-1", Action: "Start",
	}
	if ev, err = f.client.CoreV1().Events("default").Create(ctx, ev, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if !ev.LastTimestamp.Equal(&want) || !ev.EventTime.Equal(&micro) {
		t.Errorf("event lastTimestamp %v eventTime %v, want %v and %v", ev.LastTimestamp, ev.EventTime, want, micro)
	}
}

// Pods started in the same second store one start time and one running
// container state, which read back as that whole second; a pod started in
// another second keeps its own.
func TestPodsStartedInOneSecondShareTheirStartTime(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	stored := map[string]*corev1.Pod{}
	cancel := f.cluster.Subscribe(func(ev watch.Event) {
		if p, ok := ev.Object.(*corev1.Pod); ok && ev.Type == watch.Modified {
			stored[p.Name] = p
		}
	})
	defer cancel()
	starts := map[string]time.Duration{"a": 2700 * time.Millisecond, "b": 2200 * time.Millisecond, "c": 3100 * time.Millisecond}
	for _, name := range []string{"a", "b", "c"} {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: podTemplate("web", "nginx:1.25").Spec}
		pod, err := f.client.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pod.Status.StartTime = &metav1.Time{Time: epoch.Add(starts[name])}
		pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", State: corev1.ContainerState{
			Running: &corev1.ContainerStateRunning{StartedAt: metav1.Time{Time: epoch.Add(starts[name])}},
		}}}
		if _, err := f.client.CoreV1().Pods("default").UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]time.Time{"a": epoch.Add(2 * time.Second), "b": epoch.Add(2 * time.Second), "c": epoch.Add(3 * time.Second)} {
		got, err := f.client.CoreV1().Pods("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Status.StartTime == nil || !got.Status.StartTime.Time.Equal(want) {
			t.Errorf("pod %s started at %v, want the whole second %v", name, got.Status.StartTime, want)
		}
		if r := got.Status.ContainerStatuses[0].State.Running; r == nil || !r.StartedAt.Time.Equal(want) {
			t.Errorf("pod %s container running %v, want since the whole second %v", name, r, want)
		}
	}
	if stored["a"].Status.StartTime != stored["b"].Status.StartTime {
		t.Error("pods started in the same second each hold their own start time")
	}
	running := func(name string) *corev1.ContainerStateRunning {
		return stored[name].Status.ContainerStatuses[0].State.Running
	}
	if running("a") != running("b") || running("b") == running("c") {
		t.Error("containers started in the same second do not share their running state, or in different ones do")
	}
	if stored["c"].Status.StartTime == stored["b"].Status.StartTime {
		t.Error("pods started in different seconds share a start time")
	}
}
