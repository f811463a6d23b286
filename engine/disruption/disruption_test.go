package disruption

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
)

var now = controltest.Start

type harness struct {
	*controltest.Harness
	ctrl *Controller
}

// newHarness puts objs both in the fake API and in the listers.
func newHarness(t testing.TB, objs ...runtime.Object) *harness {
	t.Helper()
	h := &harness{Harness: controltest.New(t, objs...)}
	h.ctrl = New(h.Env)
	h.Watch(h.ctrl)
	return h
}

func (h *harness) budget(name string) policyv1.PodDisruptionBudgetStatus {
	h.T.Helper()
	b, err := h.Client.PolicyV1().PodDisruptionBudgets("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.T.Fatal(err)
	}
	return b.Status
}

var yes = true

func controllerRef(apiVersion, kind, name string) []metav1.OwnerReference {
	return []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name, UID: types.UID("uid-" + name), Controller: &yes}}
}

func deployment(name string, replicas int32) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas}}
}

// replicaSet returns a ReplicaSet, run by the Deployment named owner if any.
func replicaSet(name string, replicas int32, owner string) *appsv1.ReplicaSet {
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas}}
	if owner != "" {
		rs.OwnerReferences = controllerRef("apps/v1", "Deployment", owner)
	}
	return rs
}

type podState int

const (
	ready podState = iota
	notReady
	terminating
)

func pod(name string, state podState, owner []metav1.OwnerReference) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}, OwnerReferences: owner},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue},
		}},
	}
	switch state {
	case notReady:
		p.Status.Conditions[0].Status = corev1.ConditionFalse
	case terminating:
		t := metav1.NewTime(now)
		p.DeletionTimestamp = &t
	}
	return p
}

func budget(name string, minAvailable, maxUnavailable *intstr.IntOrString) *policyv1.PodDisruptionBudget {
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Generation: 2},
		Spec: policyv1.PodDisruptionBudgetSpec{
			Selector:       &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			MinAvailable:   minAvailable,
			MaxUnavailable: maxUnavailable,
		},
	}
}

func ints(v int) *intstr.IntOrString       { x := intstr.FromInt32(int32(v)); return &x }
func percent(v string) *intstr.IntOrString { x := intstr.FromString(v); return &x }

func TestBudgetStatus(t *testing.T) {
	ofRS := controllerRef("apps/v1", "ReplicaSet", "web-abc")
	ofRC := controllerRef("v1", "ReplicationController", "legacy")
	ofSS := controllerRef("apps/v1", "StatefulSet", "db")
	rc := &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "legacy", Namespace: "default", UID: "uid-legacy"},
		Spec: corev1.ReplicationControllerSpec{Replicas: ptr(int32(4))}}
	ss := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default", UID: "uid-db"},
		Spec: appsv1.StatefulSetSpec{Replicas: ptr(int32(5))}}
	cases := []struct {
		name                                   string
		budget                                 *policyv1.PodDisruptionBudget
		objs                                   []runtime.Object
		expected, healthy, desired, disruption int32
	}{
		{
			name:   "minAvailable integer counts the pods that exist",
			budget: budget("pdb", ints(2), nil),
			objs: []runtime.Object{deployment("web", 4), replicaSet("web-abc", 4, "web"),
				pod("a", ready, ofRS), pod("b", ready, ofRS), pod("c", ready, ofRS)},
			expected: 3, healthy: 3, desired: 2, disruption: 1,
		},
		{
			name:   "minAvailable percentage is taken of the Deployment's replicas, rounded up",
			budget: budget("pdb", percent("50%"), nil),
			objs: []runtime.Object{deployment("web", 5), replicaSet("web-abc", 5, "web"),
				pod("a", ready, ofRS), pod("b", ready, ofRS), pod("c", ready, ofRS), pod("d", ready, ofRS)},
			expected: 5, healthy: 4, desired: 3, disruption: 1,
		},
		{
			name:   "maxUnavailable integer",
			budget: budget("pdb", nil, ints(1)),
			objs: []runtime.Object{deployment("web", 4), replicaSet("web-abc", 4, "web"),
				pod("a", ready, ofRS), pod("b", ready, ofRS), pod("c", ready, ofRS), pod("d", notReady, ofRS)},
			expected: 4, healthy: 3, desired: 3, disruption: 0,
		},
		{
			name:   "maxUnavailable percentage rounds the allowance up",
			budget: budget("pdb", nil, percent("30%")),
			objs: []runtime.Object{rc,
				pod("a", ready, ofRC), pod("b", ready, ofRC), pod("c", ready, ofRC), pod("d", ready, ofRC)},
			expected: 4, healthy: 4, desired: 2, disruption: 2,
		},
		{
			name:     "a standalone ReplicaSet counts its own replicas",
			budget:   budget("pdb", nil, ints(0)),
			objs:     []runtime.Object{replicaSet("web-abc", 2, ""), pod("a", ready, ofRS), pod("b", ready, ofRS)},
			expected: 2, healthy: 2, desired: 2, disruption: 0,
		},
		{
			name:     "a StatefulSet is read from the API",
			budget:   budget("pdb", percent("60%"), nil),
			objs:     []runtime.Object{ss, pod("db-0", ready, ofSS), pod("db-1", ready, ofSS), pod("db-2", ready, ofSS), pod("db-3", ready, ofSS)},
			expected: 5, healthy: 4, desired: 3, disruption: 1,
		},
		{
			name:   "not-ready and terminating pods are unhealthy",
			budget: budget("pdb", ints(1), nil),
			objs: []runtime.Object{deployment("web", 3), replicaSet("web-abc", 3, "web"),
				pod("a", ready, ofRS), pod("b", notReady, ofRS), pod("c", terminating, ofRS)},
			expected: 3, healthy: 1, desired: 1, disruption: 0,
		},
		{
			name:     "no pods: nothing may be disrupted",
			budget:   budget("pdb", ints(0), nil),
			expected: 0, healthy: 0, desired: 0, disruption: 0,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, append(c.objs, c.budget)...)
			if err := h.ctrl.Sync(context.Background(), "default/pdb"); err != nil {
				t.Fatal(err)
			}
			st := h.budget("pdb")
			if st.ExpectedPods != c.expected || st.CurrentHealthy != c.healthy || st.DesiredHealthy != c.desired || st.DisruptionsAllowed != c.disruption {
				t.Errorf("expected %d healthy %d desired %d allowed %d; want %d %d %d %d",
					st.ExpectedPods, st.CurrentHealthy, st.DesiredHealthy, st.DisruptionsAllowed, c.expected, c.healthy, c.desired, c.disruption)
			}
			if st.ObservedGeneration != 2 {
				t.Errorf("observedGeneration %d, want 2", st.ObservedGeneration)
			}
			cond := meta.FindStatusCondition(st.Conditions, policyv1.DisruptionAllowedCondition)
			wantStatus, wantReason := metav1.ConditionFalse, "InsufficientPods"
			if c.disruption > 0 {
				wantStatus, wantReason = metav1.ConditionTrue, "SufficientPods"
			}
			if cond == nil || cond.Status != wantStatus || cond.Reason != wantReason || !cond.LastTransitionTime.Time.Equal(now) {
				t.Errorf("condition %+v, want DisruptionAllowed=%s/%s at the controller's clock", cond, wantStatus, wantReason)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestEvictedPodsCountAsUnhealthyUntilTheyGo(t *testing.T) {
	ofRS := controllerRef("apps/v1", "ReplicaSet", "web-abc")
	b := budget("pdb", ints(2), nil)
	b.Status.DisruptedPods = map[string]metav1.Time{
		"just-evicted":  metav1.NewTime(now.Add(-30 * time.Second)),
		"evicted-early": metav1.NewTime(now.Add(-50 * time.Second)),
		"never-deleted": metav1.NewTime(now.Add(-3 * time.Minute)),
		"deleting":      metav1.NewTime(now.Add(-10 * time.Second)),
		"gone":          metav1.NewTime(now.Add(-10 * time.Second)),
	}
	h := newHarness(t, replicaSet("web-abc", 5, ""), b,
		pod("just-evicted", ready, ofRS), pod("evicted-early", ready, ofRS), pod("never-deleted", ready, ofRS),
		pod("deleting", terminating, ofRS), pod("healthy", ready, ofRS))
	if err := h.ctrl.Sync(context.Background(), "default/pdb"); err != nil {
		t.Fatal(err)
	}
	st := h.budget("pdb")
	if len(st.DisruptedPods) != 2 || st.DisruptedPods["just-evicted"].Time.IsZero() || st.DisruptedPods["evicted-early"].Time.IsZero() {
		t.Errorf("disruptedPods %v, want only just-evicted and evicted-early", st.DisruptedPods)
	}
	// healthy and never-deleted (its eviction is stale) are healthy; the two
	// evicted ones and the terminating one are not.
	if st.CurrentHealthy != 2 || st.DisruptionsAllowed != 0 {
		t.Errorf("currentHealthy %d allowed %d, want 2 and 0", st.CurrentHealthy, st.DisruptionsAllowed)
	}
	if !slices.Contains(h.Events.Lines, "Warning NotDeleted Pod was expected by PDB default/default to be deleted but it wasn't") {
		t.Errorf("events %q, want NotDeleted for never-deleted", h.Events.Lines)
	}
	// The earlier eviction goes stale first: 120s - 50s.
	if !slices.Equal(h.Queue.After, []controltest.Delayed{{Key: "default/pdb", Delay: 70 * time.Second}}) {
		t.Errorf("rechecks %v, want default/pdb in 70s", h.Queue.After)
	}
}

func TestUnchangedStatusIsNotWritten(t *testing.T) {
	ofRS := controllerRef("apps/v1", "ReplicaSet", "web-abc")
	h := newHarness(t, replicaSet("web-abc", 1, ""), budget("pdb", ints(1), nil), pod("a", ready, ofRS))
	ctx := context.Background()
	if err := h.ctrl.Sync(ctx, "default/pdb"); err != nil {
		t.Fatal(err)
	}
	b, err := h.Client.PolicyV1().PodDisruptionBudgets("default").Get(ctx, "pdb", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Sync again once the cache holds the written status.
	h2 := newHarness(t, replicaSet("web-abc", 1, ""), b, pod("a", ready, ofRS))
	if err := h2.ctrl.Sync(ctx, "default/pdb"); err != nil {
		t.Fatal(err)
	}
	for _, a := range h2.Client.Actions() {
		if a.GetVerb() == "update" {
			t.Errorf("status written again with nothing changed: %v", a)
		}
	}
}

func TestUnmanagedPodsAreReportedAndLeftOut(t *testing.T) {
	ofRS := controllerRef("apps/v1", "ReplicaSet", "web-abc")
	h := newHarness(t, replicaSet("web-abc", 2, ""), budget("pdb", percent("100%"), nil),
		pod("a", ready, ofRS), pod("b", ready, ofRS), pod("stray", ready, nil))
	if err := h.ctrl.Sync(context.Background(), "default/pdb"); err != nil {
		t.Fatal(err)
	}
	st := h.budget("pdb")
	if st.ExpectedPods != 2 || st.CurrentHealthy != 3 || st.DisruptionsAllowed != 1 {
		t.Errorf("status %+v, want expected 2 (the stray pod has no controller), healthy 3, allowed 1", st)
	}
	if len(h.Events.Lines) != 1 || !strings.HasPrefix(h.Events.Lines[0], "Warning UnmanagedPods Pods selected by this PodDisruptionBudget") {
		t.Errorf("events %q, want one UnmanagedPods warning", h.Events.Lines)
	}
}

func TestMissingControllerFailsSafe(t *testing.T) {
	ofRS := controllerRef("apps/v1", "ReplicaSet", "vanished")
	b := budget("pdb", nil, ints(1))
	b.Status.DisruptionsAllowed = 3
	h := newHarness(t, b, pod("a", ready, ofRS))
	err := h.ctrl.Sync(context.Background(), "default/pdb")
	if err == nil || !strings.Contains(err.Error(), `found no controllers for pod "a"`) {
		t.Fatalf("sync error %v, want found no controllers", err)
	}
	st := h.budget("pdb")
	cond := meta.FindStatusCondition(st.Conditions, policyv1.DisruptionAllowedCondition)
	if st.DisruptionsAllowed != 0 || cond == nil || cond.Status != metav1.ConditionFalse || cond.Reason != "SyncFailed" || cond.Message != err.Error() {
		t.Errorf("allowed %d condition %+v, want 0 and DisruptionAllowed=False/SyncFailed", st.DisruptionsAllowed, cond)
	}
	if !slices.Contains(h.Events.Lines, `Warning CalculateExpectedPodCountFailed Failed to calculate the number of expected pods: found no controllers for pod "a"`) {
		t.Errorf("events %q", h.Events.Lines)
	}
}

func TestNoPodsEvent(t *testing.T) {
	h := newHarness(t, budget("pdb", ints(1), nil))
	if err := h.ctrl.Sync(context.Background(), "default/pdb"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.Events.Lines, []string{"Normal NoPods No matching pods found"}) {
		t.Errorf("events %q", h.Events.Lines)
	}
	if err := h.ctrl.Sync(context.Background(), "default/gone"); err != nil {
		t.Errorf("sync of a deleted budget: %v", err)
	}
}

func TestPodEventsEnqueueTheBudgetsSelectingThem(t *testing.T) {
	other := budget("b-other", ints(1), nil)
	other.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
	all := budget("a-all", ints(1), nil)
	all.Spec.Selector = &metav1.LabelSelector{}
	h := newHarness(t, budget("c-web", ints(1), nil), other, all)
	p := pod("a", ready, nil)
	h.Handlers[control.Pods].OnAdd(p, false)
	if want := []string{"default/a-all", "default/c-web"}; !slices.Equal(h.Queue.Added, want) {
		t.Errorf("enqueued %v, want %v", h.Queue.Added, want)
	}
	h.Queue.Added = nil
	churn := p.DeepCopy()
	churn.Status.PodIP = "10.0.0.9"
	h.Handlers[control.Pods].OnUpdate(p, churn)
	if len(h.Queue.Added) != 0 {
		t.Errorf("a status write that changes no budget enqueued %v", h.Queue.Added)
	}
	unready := p.DeepCopy()
	unready.Status.Conditions[0].Status = corev1.ConditionFalse
	h.Handlers[control.Pods].OnUpdate(p, unready)
	if want := []string{"default/a-all", "default/c-web", "default/a-all", "default/c-web"}; !slices.Equal(h.Queue.Added, want) {
		t.Errorf("readiness change enqueued %v, want %v", h.Queue.Added, want)
	}
	h.Queue.Added = nil
	moved := p.DeepCopy()
	moved.Labels["app"] = "db"
	h.Handlers[control.Pods].OnUpdate(p, moved)
	if want := []string{"default/a-all", "default/c-web", "default/a-all", "default/b-other"}; !slices.Equal(h.Queue.Added, want) {
		t.Errorf("relabel enqueued %v, want %v (the budget it left and the one it joined)", h.Queue.Added, want)
	}
}

func TestUnwiredControllerReportsInsteadOfPanicking(t *testing.T) {
	c := New(nil)
	for _, h := range c.Watches(controltest.New(t).Queue) {
		h.OnAdd("not an object", false)
		h.OnAdd(pod("p", ready, nil), false)
		h.OnUpdate(nil, nil)
		h.OnDelete(cache.DeletedFinalStateUnknown{Key: "default/p"})
	}
	if err := c.Sync(context.Background(), "default/pdb"); err == nil {
		t.Error("sync without an environment succeeded")
	}
}
