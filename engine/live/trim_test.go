package live

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/control"
	"rollscope/engine/drain"
	"rollscope/model"
)

// podsOnOneNode is a node's worth of pods that between them take every
// branch of kubectl drain's filters and of the canary's gates, each
// carrying what a real pod carries besides (containers, env, managed
// fields, annotations) so that trimming has something to drop.
func podsOnOneNode(now time.Time) []*corev1.Pod {
	rs := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "rs-uid", Controller: ptr(true)}
	ds := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "agent", UID: "ds-uid", Controller: ptr(true)}
	gone := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "removed", UID: "gone-uid", Controller: ptr(true)}
	long := metav1.NewTime(now.Add(-time.Hour))
	pod := func(name string, mutate func(*corev1.Pod)) *corev1.Pod {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", UID: k8stypes.UID("uid-" + name), ResourceVersion: "7",
				Labels:        map[string]string{"app": "web"},
				Annotations:   map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"big":"json"}`},
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate}},
			},
			Spec: corev1.PodSpec{NodeName: "n1",
				Containers: []corev1.Container{{Name: "web", Image: "web:1", Env: []corev1.EnvVar{{Name: "A", Value: "b"}}}},
				Volumes:    []corev1.Volume{{Name: "token", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{}}}},
			},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1",
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: long}},
				ContainerStatuses: []corev1.ContainerStatus{{Name: "web", Ready: true, Image: "web:1", ImageID: "sha256:1", ContainerID: "cri://1",
					State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: long}}}},
			},
		}
		mutate(p)
		return p
	}
	return []*corev1.Pod{
		pod("replicated", func(p *corev1.Pod) { p.OwnerReferences = []metav1.OwnerReference{rs} }),
		pod("scratch", func(p *corev1.Pod) {
			p.OwnerReferences = []metav1.OwnerReference{rs}
			p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}}})
		}),
		pod("agent-x", func(p *corev1.Pod) { p.OwnerReferences = []metav1.OwnerReference{ds} }),
		pod("orphan-of-removed", func(p *corev1.Pod) { p.OwnerReferences = []metav1.OwnerReference{gone} }),
		pod("static", func(p *corev1.Pod) { p.Annotations[model.MirrorPodAnnotation] = "hash" }),
		pod("bare", func(*corev1.Pod) {}),
		pod("finished-scratch", func(p *corev1.Pod) {
			p.Status.Phase = corev1.PodSucceeded
			p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		}),
		pod("going-long-ago", func(p *corev1.Pod) {
			p.OwnerReferences = []metav1.OwnerReference{rs}
			p.DeletionTimestamp = &long
		}),
		pod("crashing", func(p *corev1.Pod) {
			p.OwnerReferences = []metav1.OwnerReference{rs}
			p.Status.Conditions[0].Status = corev1.ConditionFalse
			p.Status.InitContainerStatuses = []corev1.ContainerStatus{{Name: "init", RestartCount: 1, Image: "init:1",
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 3, Message: "long log tail"}}}}
			p.Status.ContainerStatuses[0] = corev1.ContainerStatus{Name: "web", RestartCount: 4, Image: "web:1",
				State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 40s"}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 1}}}
		}),
		pod("pulling", func(p *corev1.Pod) {
			p.OwnerReferences = []metav1.OwnerReference{rs}
			p.Status.ContainerStatuses[0].State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff"}}
		}),
	}
}

func ptr[T any](v T) *T { return &v }

// Every kubectl drain flag combination decides the same on trimmed pods as
// on whole ones, the canary's gates read the same facts, and the indexes
// the controllers look pods up by file them under the same keys — while
// the trimmed pod has dropped its containers, env, images and managed
// fields.
func TestTrimmedPodsDecideAsWholeOnes(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	whole := podsOnOneNode(now)
	var trimmed []*corev1.Pod
	for _, p := range whole {
		before := p.DeepCopy()
		out, err := trimForControllers(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p, before) {
			t.Fatalf("trimming %s changed the whole pod", p.Name)
		}
		tp := out.(*corev1.Pod)
		if len(tp.Spec.Containers) > 0 || len(tp.ManagedFields) > 0 || tp.Status.PodIP != "" || tp.Annotations["kubectl.kubernetes.io/last-applied-configuration"] != "" {
			t.Errorf("trimmed %s still holds what no controller reads: %+v", p.Name, tp)
		}
		trimmed = append(trimmed, tp)
	}
	lookup := func(_, name string) error {
		if name == "agent" {
			return nil
		}
		return apierrors.NewNotFound(schema.GroupResource{Group: "apps", Resource: "daemonsets"}, name)
	}
	for mask := range 1 << 5 {
		o := drain.Options{Force: mask&1 != 0, IgnoreDaemonSets: mask&2 != 0, DeleteEmptyDirData: mask&4 != 0, DisableEviction: mask&8 != 0}
		if mask&16 != 0 {
			o.SkipWaitForDeleteTimeoutSeconds = 60
		}
		a, b := drain.Filter(whole, o, lookup, now), drain.Filter(trimmed, o, lookup, now)
		if got, want := planOf(b), planOf(a); got != want {
			t.Errorf("drain %+v on trimmed pods:\n%s\nwant, as on whole ones:\n%s", o, got, want)
		}
	}
	for i, p := range whole {
		tp := trimmed[i]
		if got, want := model.CanaryPodOf(tp), model.CanaryPodOf(p); got != want {
			t.Errorf("canary reads trimmed %s as %+v, whole as %+v", p.Name, got, want)
		}
		if model.IsPodActive(tp) != model.IsPodActive(p) || !reflect.DeepEqual(tp.Labels, p.Labels) {
			t.Errorf("trimmed %s: active or labels differ", p.Name)
		}
		for name, index := range control.Indexers(control.Pods) {
			got, _ := index(tp)
			want, _ := index(p)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("index %s files trimmed %s under %v, whole under %v", name, p.Name, got, want)
			}
		}
	}
}

func planOf(p drain.Plan) string {
	var evict []string
	for _, pod := range p.Evict {
		evict = append(evict, pod.Name)
	}
	return fmt.Sprintf("evict %v\nrefused: %v\nwarnings: %s", evict, p.Err(), p.WarningText())
}

// Only managed fields leave the objects the controllers write back with
// Update (nodes, RCs, Deployments) and the ReplicaSets whose templates the
// canary compares; a DaemonSet is kept by name only, which is all a drain
// asks of it.
func TestTrimKeepsWhatIsWrittenBack(t *testing.T) {
	mf := []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", ManagedFields: mf,
		Annotations: map[string]string{model.ChangeCauseAnnotation: "x"}}, Spec: appsv1.DeploymentSpec{Replicas: ptr(int32(3))}}
	want := d.DeepCopy()
	want.ManagedFields = nil
	if out, _ := trimForControllers(d); !reflect.DeepEqual(out, want) {
		t.Errorf("trimmed Deployment %+v, want %+v", out, want)
	}
	// The input may be the client's own object too (the fake clientset's
	// tracker serves Gets from what it hands its watchers): it is left as
	// it was, or a concurrent reader races the cut.
	if len(d.ManagedFields) != 1 {
		t.Errorf("trimming changed its input: managed fields %v", d.ManagedFields)
	}
	u := &unstructured.Unstructured{}
	u.SetName("canary")
	u.SetManagedFields(mf)
	out, _ := trimForControllers(u)
	if got := out.(*unstructured.Unstructured); got.GetName() != "canary" || got.GetManagedFields() != nil || len(u.GetManagedFields()) != 1 {
		t.Errorf("trimmed unstructured object %v from %v", got.Object, u.Object)
	}
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system", ManagedFields: mf},
		Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}}}}}}
	out, _ = trimForControllers(ds)
	if got := out.(*appsv1.DaemonSet); got.Name != "agent" || got.Namespace != "kube-system" || len(got.Spec.Template.Spec.Containers) > 0 || got.ManagedFields != nil {
		t.Errorf("trimmed DaemonSet: %+v", got)
	}
}

// The console's runner — trimmed caches, pods watched on demand — carries
// out a drain exactly as a runner on whole objects watching every pod
// from the start does: the same refusal with the same pods named when the
// flags do not allow it, and the same drained node, message and pods left
// (the mirror and DaemonSet pods) when they do.
func TestTrimmedRunnerDrainsAsAWholeOne(t *testing.T) {
	now := time.Now()
	for o, state := range map[drain.Options]string{
		{}: model.DrainFailed,
		{Force: true, IgnoreDaemonSets: true, DeleteEmptyDirData: true, DisableEviction: true}: model.DrainDrained,
	} {
		whole, left := drainWith(t, Scope{}, o, now)
		trimmed, trimmedLeft := drainWith(t, Scope{Trim: true, PodsNeeded: consoleNeedsPods}, o, now)
		got, want := trimmed, whole
		if state == model.DrainDrained {
			// A drain's last message is its last sync's warnings: when the
			// pod without a controller is already gone by then (the drain
			// took two syncs, on either runner), it is no longer named.
			// What must match is the outcome.
			got, want = drainedState(trimmed), drainedState(whole)
		}
		if got != want || !reflect.DeepEqual(trimmedLeft, left) {
			t.Errorf("drain %+v, console's runner: %s, pods left %v\nwant, as the whole one: %s, pods left %v", o, trimmed, trimmedLeft, whole, left)
		}
		if !strings.HasPrefix(whole, state+": ") {
			t.Errorf("drain %+v ended %s, want %s", o, whole, state)
		}
	}
}

// drainedState is a drain's ending without its message.
func drainedState(ending string) string {
	state, _, _ := strings.Cut(ending, ": ")
	return state
}

// drainWith runs one drain of n1 on a runner of scope and returns how it
// ended (state and message) and the pods left on the node.
func drainWith(t *testing.T, scope Scope, o drain.Options, now time.Time) (string, []string) {
	t.Helper()
	objs := []runtime.Object{
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
		&appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "shop"}},
	}
	for _, p := range podsOnOneNode(now) {
		if p.DeletionTimestamp == nil { // the fake API has no graceful deletion
			objs = append(objs, p)
		}
	}
	client := fake.NewClientset(objs...)
	r, err := NewScopedRunner(client, scope, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Add(drain.New(r.Env("drain-controller")))
	ctx := runForTest(t, r)
	if err := drain.Request(ctx, client, "n1", o); err != nil {
		t.Fatal(err)
	}
	for {
		n, err := client.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if st := n.Annotations[model.DrainStateAnnotation]; model.DrainOver(st) {
			pods, err := client.CoreV1().Pods("shop").List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, p := range pods.Items {
				left = append(left, p.Name)
			}
			sort.Strings(left)
			return st + ": " + n.Annotations[model.DrainMessageAnnotation], left
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the drain never ended: %v", n.Annotations)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// runForTest runs r until the test ends (at most 20 seconds), fails the test
// if Run fails, and returns once the caches are synced.
func runForTest(t *testing.T, r *Runner) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	<-r.Synced()
	return ctx
}
