package replicaset

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control/controltest"
)

func TestScaleUpCreatesPodsFromTheTemplate(t *testing.T) {
	h := newHarness(t, false, newRS("web", 3))
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	pods := h.pods()
	if len(pods) != 3 {
		t.Fatalf("created %d pods, want 3", len(pods))
	}
	for _, p := range pods {
		if p.GenerateName != "web-" || !strings.HasPrefix(p.Name, "web-") {
			t.Errorf("pod %s: generateName %q, want web-", p.Name, p.GenerateName)
		}
		if p.Labels["tier"] != "frontend" || p.Annotations["team"] != "checkout" {
			t.Errorf("pod %s: labels %v annotations %v, want the template's", p.Name, p.Labels, p.Annotations)
		}
		ref := metav1.GetControllerOf(&p)
		if ref == nil || ref.Kind != "ReplicaSet" || ref.APIVersion != "apps/v1" || ref.Name != "web" || ref.UID != "uid-web" ||
			ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
			t.Errorf("pod %s: controller ref %+v, want a blocking controller ref to ReplicaSet web", p.Name, ref)
		}
		if p.Spec.Containers[0].Image != "gb-frontend:v3" {
			t.Errorf("pod %s: image %q, want the template's", p.Name, p.Spec.Containers[0].Image)
		}
	}
	want := []string{
		"Normal SuccessfulCreate Created pod: web-00001",
		"Normal SuccessfulCreate Created pod: web-00002",
		"Normal SuccessfulCreate Created pod: web-00003",
	}
	if !slices.Equal(h.Events.Lines, want) {
		t.Errorf("events %q, want %q", h.Events.Lines, want)
	}
}

func TestScaleUpStopsAfterTheFirstFailedBatch(t *testing.T) {
	h := newHarness(t, false, newRS("web", 10))
	calls := 0
	h.Client.PrependReactor("create", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		calls++
		if calls >= 5 {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("exceeded quota"))
		}
		return false, nil, nil
	})
	err := h.sync("default/web")
	if err == nil {
		t.Fatal("sync succeeded although creates were refused")
	}
	// Batches of 1, 2 and 4: the fifth call fails, the rest of its batch is
	// still tried, and no batch of 3 follows.
	if calls != 7 {
		t.Errorf("create called %d times, want 7 (batches 1+2+4)", calls)
	}
	if n := len(h.pods()); n != 4 {
		t.Errorf("%d pods exist, want 4", n)
	}
	failed := 0
	for _, l := range h.Events.Lines {
		if strings.HasPrefix(l, "Warning FailedCreate Error creating: ") && strings.Contains(l, "exceeded quota") {
			failed++
		}
	}
	if failed != 3 {
		t.Errorf("events %q: want 3 FailedCreate events", h.Events.Lines)
	}
	rs := h.replicaSet("web")
	if len(rs.Status.Conditions) != 1 || rs.Status.Conditions[0].Type != appsv1.ReplicaSetReplicaFailure ||
		rs.Status.Conditions[0].Reason != "FailedCreate" || !strings.Contains(rs.Status.Conditions[0].Message, "exceeded quota") {
		t.Errorf("conditions %+v, want ReplicaFailure/FailedCreate with the API's message", rs.Status.Conditions)
	}

	// The 4 created pods are still expected; until the cache shows them the
	// controller must not create again.
	calls = -100
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if n := count(h.actions(), "create pods"); n != 0 {
		t.Errorf("created %d pods before the cache caught up, want 0", n)
	}
	h.observe()
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if n := len(h.pods()); n != 10 {
		t.Errorf("%d pods after the quota was lifted, want 10", n)
	}
	h.observe()
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if c := h.replicaSet("web").Status.Conditions; len(c) != 0 {
		t.Errorf("ReplicaFailure not cleared after a clean sync: %+v", c)
	}
}

func TestSyncDoesNotCreateTwiceBeforeTheCacheCatchesUp(t *testing.T) {
	h := newHarness(t, false, newRS("web", 3))
	for range 3 {
		if err := h.sync("default/web"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(h.pods()); n != 3 {
		t.Fatalf("%d pods after three syncs with a stale cache, want 3", n)
	}
	h.observe()
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if n := len(h.pods()); n != 3 {
		t.Fatalf("%d pods once the cache caught up, want 3", n)
	}
	if got := h.replicaSet("web").Status.Replicas; got != 3 {
		t.Errorf("status.replicas %d, want 3", got)
	}
}

func TestExpectationsExpireAfterFiveMinutes(t *testing.T) {
	h := newHarness(t, false, newRS("web", 2))
	// The API accepts the creates but the pods never show up (a lost watch).
	h.Client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		return true, a.(k8stesting.CreateAction).GetObject(), nil
	})
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	h.Clock.SetTime(t0.Add(4 * time.Minute))
	h.actions()
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if n := count(h.actions(), "create pods"); n != 0 {
		t.Errorf("created %d pods while creations were in flight, want 0", n)
	}
	h.Clock.SetTime(t0.Add(5*time.Minute + time.Second))
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if n := count(h.actions(), "create pods"); n != 2 {
		t.Errorf("created %d pods after the expectations expired, want 2", n)
	}
}

func TestScaleDownDeletesTheCheapestPodsFirst(t *testing.T) {
	rs := newRS("web", 2)
	objs := []runtime.Object{rs,
		podOf(rs, "ReplicaSet", "ready-old", "node-a", corev1.PodRunning, ago(time.Hour)),
		podOf(rs, "ReplicaSet", "ready-new", "node-b", corev1.PodRunning, ago(time.Minute)),
		podOf(rs, "ReplicaSet", "not-ready", "node-c", corev1.PodRunning, nil),
		podOf(rs, "ReplicaSet", "pending", "node-d", corev1.PodPending, nil),
		podOf(rs, "ReplicaSet", "unscheduled", "", corev1.PodPending, nil),
	}
	h := newHarness(t, false, objs...)
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, p := range h.pods() {
		left = append(left, p.Name)
	}
	if !slices.Equal(left, []string{"ready-new", "ready-old"}) {
		t.Errorf("pods left %v, want the two ready ones", left)
	}
	want := []string{
		"Normal SuccessfulDelete Deleted pod: unscheduled",
		"Normal SuccessfulDelete Deleted pod: pending",
		"Normal SuccessfulDelete Deleted pod: not-ready",
	}
	if !slices.Equal(h.Events.Lines, want) {
		t.Errorf("events %q, want %q", h.Events.Lines, want)
	}
	// Status counts the pods as they were when the sync started.
	if st := h.replicaSet("web").Status; st.Replicas != 5 || st.ReadyReplicas != 2 {
		t.Errorf("status %+v, want replicas 5 ready 2 until the deletions are observed", st)
	}
	h.observe()
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if st := h.replicaSet("web").Status; st.Replicas != 2 {
		t.Errorf("status.replicas %d after the deletions were observed, want 2", st.Replicas)
	}
}

func TestScaleDownPrefersPodsDoubledUpWithTheirFamily(t *testing.T) {
	yes := true
	deploy := []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "uid-deploy", Controller: &yes}}
	newer, older := newRS("web-new", 1), newRS("web-old", 1)
	newer.OwnerReferences, older.OwnerReferences = deploy, deploy
	newer.Spec.Selector.MatchLabels = map[string]string{"app": "web", "hash": "new"}
	older.Spec.Selector.MatchLabels = map[string]string{"app": "web", "hash": "old"}
	label := func(p *corev1.Pod, hash string) *corev1.Pod {
		p.Labels["hash"] = hash
		return p
	}
	objs := []runtime.Object{newer, older,
		// Same age and readiness: only co-location tells them apart.
		label(podOf(newer, "ReplicaSet", "new-on-a", "node-a", corev1.PodRunning, ago(time.Hour)), "new"),
		label(podOf(newer, "ReplicaSet", "new-on-b", "node-b", corev1.PodRunning, ago(time.Hour)), "new"),
		label(podOf(older, "ReplicaSet", "old-on-b", "node-b", corev1.PodRunning, ago(time.Hour)), "old"),
	}
	h := newHarness(t, false, objs...)
	if err := h.sync("default/web-new"); err != nil {
		t.Fatal(err)
	}
	want := []string{"Normal SuccessfulDelete Deleted pod: new-on-b"}
	if !slices.Equal(h.Events.Lines, want) {
		t.Errorf("events %q, want %q (node-b also runs a pod of the old ReplicaSet)", h.Events.Lines, want)
	}
}

func TestStatusCountsAvailabilityWithMinReadySeconds(t *testing.T) {
	rs := newRS("web", 3)
	rs.Spec.MinReadySeconds = 10
	rs.Generation = 4
	stray := podOf(rs, "ReplicaSet", "stray-labels", "node-a", corev1.PodRunning, ago(time.Minute))
	delete(stray.Labels, "tier") // still selected, but not fully labelled
	objs := []runtime.Object{rs,
		podOf(rs, "ReplicaSet", "available", "node-a", corev1.PodRunning, ago(20*time.Second)),
		podOf(rs, "ReplicaSet", "just-ready", "node-b", corev1.PodRunning, ago(5*time.Second)),
		stray,
	}
	h := newHarness(t, false, objs...)
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	st := h.replicaSet("web").Status
	want := appsv1.ReplicaSetStatus{Replicas: 3, FullyLabeledReplicas: 2, ReadyReplicas: 3, AvailableReplicas: 2, ObservedGeneration: 4}
	if st.Replicas != want.Replicas || st.FullyLabeledReplicas != want.FullyLabeledReplicas || st.ReadyReplicas != want.ReadyReplicas ||
		st.AvailableReplicas != want.AvailableReplicas || st.ObservedGeneration != want.ObservedGeneration {
		t.Errorf("status %+v, want %+v", st, want)
	}
	// All ready, not all available: nothing will announce the moment they
	// become available, so the controller must look again by itself.
	if !slices.Contains(h.Queue.After, controltest.Delayed{Key: "default/web", Delay: 10 * time.Second}) {
		t.Errorf("requeues %v, want default/web after 10s", h.Queue.After)
	}

	// Same pods, same status: no write.
	h.observe()
	h.actions()
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if n := count(h.actions(), "update replicasets/status"); n != 0 {
		t.Errorf("%d status writes with nothing changed, want 0", n)
	}
	h.Clock.SetTime(t0.Add(6 * time.Second))
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if got := h.replicaSet("web").Status.AvailableReplicas; got != 3 {
		t.Errorf("availableReplicas %d after minReadySeconds passed, want 3", got)
	}
}

func TestAdoptsMatchingOrphansAndReleasesMismatches(t *testing.T) {
	rs := newRS("web", 2)
	orphan := podOf(nil, "", "orphan", "node-a", corev1.PodRunning, ago(time.Hour))
	relabelled := podOf(rs, "ReplicaSet", "relabelled", "node-b", corev1.PodRunning, ago(time.Hour))
	relabelled.Labels = map[string]string{"app": "debug"}
	foreign := podOf(newRS("other", 1), "ReplicaSet", "foreign", "node-c", corev1.PodRunning, ago(time.Hour))
	kept := podOf(rs, "ReplicaSet", "kept", "node-d", corev1.PodRunning, ago(time.Hour))
	h := newHarness(t, false, rs, orphan, relabelled, foreign, kept)
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	byName := map[string]corev1.Pod{}
	for _, p := range h.pods() {
		byName[p.Name] = p
	}
	if ref := controllerOf(byName["orphan"]); ref == nil || ref.UID != "uid-web" {
		t.Errorf("orphan controller %+v, want adopted by web", ref)
	}
	if ref := controllerOf(byName["relabelled"]); ref != nil {
		t.Errorf("relabelled pod still controlled by %+v, want released", ref)
	}
	if ref := controllerOf(byName["foreign"]); ref == nil || ref.Name != "other" {
		t.Errorf("pod of another ReplicaSet now controlled by %+v", ref)
	}
	if len(byName) != 4 {
		t.Errorf("%d pods, want 4: kept + adopted orphan make 2, nothing to create or delete", len(byName))
	}
	if st := h.replicaSet("web").Status; st.Replicas != 2 {
		t.Errorf("status.replicas %d, want 2 (kept and the adopted orphan)", st.Replicas)
	}
}

func TestDeletingOwnerIsNotScaled(t *testing.T) {
	rs := newRS("web", 3)
	now := metav1.NewTime(t0)
	rs.DeletionTimestamp = &now
	h := newHarness(t, false, rs, podOf(rs, "ReplicaSet", "a", "node-a", corev1.PodRunning, ago(time.Hour)))
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if n := len(h.pods()); n != 1 {
		t.Errorf("%d pods, want 1: an owner being deleted creates nothing", n)
	}
	if got := h.replicaSet("web").Status.Replicas; got != 1 {
		t.Errorf("status.replicas %d, want 1: status is still reported", got)
	}
}

func TestMissingOwnerIsForgotten(t *testing.T) {
	h := newHarness(t, false)
	if err := h.sync("default/gone"); err != nil {
		t.Errorf("sync of a deleted ReplicaSet: %v, want nil", err)
	}
	if err := h.sync("not/a/key"); err != nil {
		t.Errorf("sync of a malformed key: %v, want nil", err)
	}
}

func TestHandlersEnqueueOwners(t *testing.T) {
	rs := newRS("web", 1)
	rs.Spec.MinReadySeconds = 30
	other := newRS("also-web", 1)
	h := newHarness(t, false, rs, other)
	h.Queue.Added = nil

	// An orphan is offered to every owner that selects it, in name order.
	h.Handlers["pods"].OnAdd(podOf(nil, "", "orphan", "", corev1.PodPending, nil), false)
	if want := []string{"default/also-web", "default/web"}; !slices.Equal(h.Queue.Added, want) {
		t.Errorf("orphan enqueued %v, want %v", h.Queue.Added, want)
	}

	// A pod becoming ready is looked at again once it can be available.
	notReady := podOf(rs, "ReplicaSet", "p", "node-a", corev1.PodRunning, nil)
	ready := podOf(rs, "ReplicaSet", "p", "node-a", corev1.PodRunning, ago(0))
	ready.ResourceVersion = "2"
	h.Handlers["pods"].OnUpdate(notReady, ready)
	if !slices.Contains(h.Queue.After, controltest.Delayed{Key: "default/web", Delay: 31 * time.Second}) {
		t.Errorf("delayed %v, want default/web after minReadySeconds+1s", h.Queue.After)
	}

	// A resync (same resourceVersion) is ignored.
	h.Queue.Added = nil
	h.Handlers["pods"].OnUpdate(ready, ready)
	if len(h.Queue.Added) != 0 {
		t.Errorf("resync enqueued %v", h.Queue.Added)
	}

	// Kubelet churn that changes neither readiness nor membership is too.
	churned := ready.DeepCopy()
	churned.ResourceVersion = "3"
	churned.Status.PodIP = "10.0.0.7"
	churned.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "php", Ready: true}}
	h.Handlers["pods"].OnUpdate(ready, churned)
	if len(h.Queue.Added) != 0 {
		t.Errorf("status churn enqueued %v", h.Queue.Added)
	}

	// A relabelled pod is looked at: its owner must release it.
	relabelled := churned.DeepCopy()
	relabelled.ResourceVersion = "4"
	relabelled.Labels = map[string]string{"app": "debug"}
	h.Handlers["pods"].OnUpdate(churned, relabelled)
	if !slices.Equal(h.Queue.Added, []string{"default/web"}) {
		t.Errorf("relabel enqueued %v, want default/web", h.Queue.Added)
	}
}

func TestOrphanAppearingLaterIsAdopted(t *testing.T) {
	h := newHarness(t, false, newRS("web", 1))
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	h.observe()
	// Someone deletes the controller's pod and, by hand, creates a matching
	// bare pod; then the controller's pod goes away.
	pods := h.pods()
	ctx := context.Background()
	if _, err := h.Client.CoreV1().Pods("default").Create(ctx, podOf(nil, "", "by-hand", "node-a", corev1.PodRunning, ago(time.Minute)), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := h.Client.CoreV1().Pods("default").Delete(ctx, pods[0].Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.actions()
	if err := h.sync("default/web"); err != nil {
		t.Fatal(err)
	}
	if got := h.actions(); count(got, "create pods") != 0 || count(got, "patch pods") != 1 {
		t.Errorf("actions %v, want the bare pod adopted (one patch) and nothing created", got)
	}
	if ref := controllerOf(*h.podNamed("by-hand")); ref == nil || ref.UID != "uid-web" {
		t.Errorf("by-hand controlled by %+v, want web", ref)
	}
}

func controllerOf(p corev1.Pod) *metav1.OwnerReference { return metav1.GetControllerOf(&p) }

func TestUnwiredControllerReportsInsteadOfPanicking(t *testing.T) {
	q := controltest.New(t).Queue
	for _, c := range []*Controller{NewReplicaSet(nil), NewReplicationController(nil)} {
		hs := c.Watches(q)
		for _, h := range hs {
			h.OnAdd("not an object", false)
			h.OnAdd(podOf(nil, "", "p", "", corev1.PodPending, nil), false)
			h.OnUpdate(nil, nil)
			h.OnDelete(cache.DeletedFinalStateUnknown{Key: "default/p"})
		}
		if err := c.Sync(context.Background(), "default/web"); err == nil {
			t.Errorf("%s: sync without an environment succeeded", c.Name())
		}
	}
}
