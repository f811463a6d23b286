package memapi_test

import (
	"net/http"
	"testing"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// budgetStatus is what the disruption controller would have written.
func (f *fixture) budgetWithStatus(t *testing.T, b *policyv1.PodDisruptionBudget, allowed, current, desired int32) *policyv1.PodDisruptionBudget {
	t.Helper()
	b = must(f.client.PolicyV1().PodDisruptionBudgets("default").Create(ctx, b, metav1.CreateOptions{}))(t)
	b.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: b.Generation, DisruptionsAllowed: allowed, CurrentHealthy: current, DesiredHealthy: desired, ExpectedPods: current}
	return must(f.client.PolicyV1().PodDisruptionBudgets("default").UpdateStatus(ctx, b, metav1.UpdateOptions{}))(t)
}

func (f *fixture) evict(name string) error {
	return f.client.CoreV1().Pods("default").EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}})
}

func TestEviction(t *testing.T) {
	type outcome struct {
		code        int32  // 0: accepted
		message     string // full error text when refused
		cause       string
		podDeleting bool // accepted evictions of bound pods start graceful deletion
		podGone     bool
		allowedLeft int32 // the budget's disruptionsAllowed afterwards (when there is one)
		disrupted   bool  // the pod is recorded in status.disruptedPods
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, f *fixture)
		want  outcome
	}{
		{
			name:  "no budget",
			setup: func(t *testing.T, f *fixture) { f.runningPod(t, "p", "web", "node-1", true) },
			want:  outcome{podDeleting: true},
		},
		{
			name: "budget allows it",
			setup: func(t *testing.T, f *fixture) {
				f.runningPod(t, "p", "web", "node-1", true)
				f.budgetWithStatus(t, budget("pdb", "web", 1), 1, 2, 1)
			},
			want: outcome{podDeleting: true, allowedLeft: 0, disrupted: true},
		},
		{
			name: "budget exhausted",
			setup: func(t *testing.T, f *fixture) {
				f.runningPod(t, "p", "web", "node-1", true)
				f.budgetWithStatus(t, budget("pdb", "web", 2), 0, 2, 2)
			},
			want: outcome{
				code: http.StatusTooManyRequests, message: "Cannot evict pod as it would violate the pod's disruption budget.",
				cause: "The disruption budget pdb needs 2 healthy pods and has 2 currently", allowedLeft: 0,
			},
		},
		{
			name: "budget not yet observed by its controller",
			setup: func(t *testing.T, f *fixture) {
				f.runningPod(t, "p", "web", "node-1", true)
				b := f.budgetWithStatus(t, budget("pdb", "web", 1), 1, 2, 1)
				b.Spec.MinAvailable = ptr(intOrStr(0))
				must(f.client.PolicyV1().PodDisruptionBudgets("default").Update(ctx, b, metav1.UpdateOptions{}))(t)
			},
			want: outcome{
				code: http.StatusTooManyRequests, message: "Cannot evict pod as it would violate the pod's disruption budget.",
				cause: "The disruption budget pdb is still being processed by the server.", allowedLeft: 1,
			},
		},
		{
			name: "two budgets",
			setup: func(t *testing.T, f *fixture) {
				f.runningPod(t, "p", "web", "node-1", true)
				f.budgetWithStatus(t, budget("pdb1", "web", 1), 1, 2, 1)
				f.budgetWithStatus(t, budget("pdb2", "web", 1), 1, 2, 1)
			},
			want: outcome{code: http.StatusInternalServerError, message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", allowedLeft: 1},
		},
		{
			name: "finished pod ignores an exhausted budget",
			setup: func(t *testing.T, f *fixture) {
				p := f.runningPod(t, "p", "web", "node-1", true)
				p.Status.Phase = corev1.PodSucceeded
				must(f.client.CoreV1().Pods("default").UpdateStatus(ctx, p, metav1.UpdateOptions{}))(t)
				f.budgetWithStatus(t, budget("pdb", "web", 2), 0, 2, 2)
			},
			want: outcome{podGone: true, allowedLeft: 0},
		},
		{
			name: "pending pod ignores an exhausted budget",
			setup: func(t *testing.T, f *fixture) {
				must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "web"), metav1.CreateOptions{}))(t)
				f.budgetWithStatus(t, budget("pdb", "web", 2), 0, 2, 2)
			},
			want: outcome{podGone: true, allowedLeft: 0},
		},
		{
			name: "unready pod when the budget is healthy takes no disruption",
			setup: func(t *testing.T, f *fixture) {
				f.runningPod(t, "p", "web", "node-1", false)
				f.budgetWithStatus(t, budget("pdb", "web", 2), 0, 2, 2)
			},
			want: outcome{podDeleting: true, allowedLeft: 0},
		},
		{
			name: "unready pod when the budget is short is refused",
			setup: func(t *testing.T, f *fixture) {
				f.runningPod(t, "p", "web", "node-1", false)
				f.budgetWithStatus(t, budget("pdb", "web", 2), 0, 1, 2)
			},
			want: outcome{
				code: http.StatusTooManyRequests, message: "Cannot evict pod as it would violate the pod's disruption budget.",
				cause: "The disruption budget pdb needs 2 healthy pods and has 1 currently",
			},
		},
		{
			name: "unready pod with AlwaysAllow",
			setup: func(t *testing.T, f *fixture) {
				f.runningPod(t, "p", "web", "node-1", false)
				b := budget("pdb", "web", 2)
				b.Spec.UnhealthyPodEvictionPolicy = ptr(policyv1.AlwaysAllow)
				f.budgetWithStatus(t, b, 0, 1, 2)
			},
			want: outcome{podDeleting: true},
		},
		{
			name: "budget of other pods",
			setup: func(t *testing.T, f *fixture) {
				f.runningPod(t, "p", "web", "node-1", true)
				f.budgetWithStatus(t, budget("pdb", "db", 2), 0, 2, 2)
			},
			want: outcome{podDeleting: true},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			tc.setup(t, f)
			f.clock.Step(10e9)
			before := f.cluster.ResourceVersion()
			err := f.evict("p")

			if tc.want.code != 0 {
				status, ok := err.(apierrors.APIStatus)
				if !ok {
					t.Fatalf("got %v, want an API error with code %d", err, tc.want.code)
				}
				s := status.Status()
				if s.Code != tc.want.code || s.Message != tc.want.message {
					t.Fatalf("got %d %q, want %d %q", s.Code, s.Message, tc.want.code, tc.want.message)
				}
				if tc.want.cause != "" && (s.Details == nil || len(s.Details.Causes) != 1 ||
					s.Details.Causes[0].Type != policyv1.DisruptionBudgetCause || s.Details.Causes[0].Message != tc.want.cause) {
					t.Fatalf("causes %+v, want %q", s.Details, tc.want.cause)
				}
				if f.cluster.ResourceVersion() != before {
					t.Fatal("a refused eviction wrote something")
				}
				return
			}
			noErr(t, err)
			p, err := f.client.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{})
			switch {
			case tc.want.podGone:
				if !apierrors.IsNotFound(err) {
					t.Fatalf("pod still there: %v", err)
				}
			case tc.want.podDeleting:
				noErr(t, err)
				if p.DeletionTimestamp == nil || !p.DeletionTimestamp.Time.Equal(epoch.Add(40e9)) {
					t.Fatalf("pod deletionTimestamp %v, want now + 30s", p.DeletionTimestamp)
				}
				if !hasCondition(p, corev1.DisruptionTarget, "EvictionByEvictionAPI") {
					t.Fatalf("evicted pod lacks the DisruptionTarget condition: %+v", p.Status.Conditions)
				}
			}
			bs := must(f.client.PolicyV1().PodDisruptionBudgets("default").List(ctx, metav1.ListOptions{}))(t)
			for _, b := range bs.Items {
				if b.Spec.Selector.MatchLabels["app"] != "web" {
					continue
				}
				if b.Status.DisruptionsAllowed != tc.want.allowedLeft {
					t.Errorf("budget %s: disruptionsAllowed %d, want %d", b.Name, b.Status.DisruptionsAllowed, tc.want.allowedLeft)
				}
				at, recorded := b.Status.DisruptedPods["p"]
				if recorded != tc.want.disrupted || recorded && !at.Time.Equal(epoch.Add(10e9)) {
					t.Errorf("budget %s: disruptedPods %v, want recorded=%v at now", b.Name, b.Status.DisruptedPods, tc.want.disrupted)
				}
			}
		})
	}
}

func hasCondition(p *corev1.Pod, typ corev1.PodConditionType, reason string) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == typ && c.Status == corev1.ConditionTrue && c.Reason == reason {
			return true
		}
	}
	return false
}

func TestEvictionVariants(t *testing.T) {
	f := newFixture(t)
	f.runningPod(t, "a", "web", "node-1", true)
	f.runningPod(t, "b", "web", "node-1", true)
	f.budgetWithStatus(t, budget("pdb", "web", 1), 1, 2, 1)

	// policy/v1beta1, as kubectl uses against older servers, with a grace period.
	noErr(t, f.client.CoreV1().Pods("default").EvictV1beta1(ctx, &policyv1beta1.Eviction{
		ObjectMeta:    metav1.ObjectMeta{Name: "a", Namespace: "default"},
		DeleteOptions: &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](0)},
	}))
	if _, err := f.client.CoreV1().Pods("default").Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("eviction with grace period 0 should remove the pod at once: %v", err)
	}
	// The budget is used up now.
	if err := f.evict("b"); !apierrors.IsTooManyRequests(err) {
		t.Fatalf("second eviction: %v, want 429", err)
	}
	if err := f.evict("missing"); !apierrors.IsNotFound(err) {
		t.Fatalf("evicting a missing pod: %v", err)
	}
	f.runningPod(t, "c", "other", "node-1", true)
	rv := f.cluster.ResourceVersion()
	wrong := types.UID("not-the-pod")
	err := f.client.CoreV1().Pods("default").EvictV1(ctx, &policyv1.Eviction{
		ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}, DeleteOptions: &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &wrong}},
	})
	if !apierrors.IsConflict(err) || f.cluster.ResourceVersion() != rv {
		t.Fatalf("eviction with a failing precondition: %v (rv %d, want %d unchanged)", err, f.cluster.ResourceVersion(), rv)
	}
	// A dry run does not touch anything.
	noErr(t, f.client.CoreV1().Pods("default").EvictV1(ctx, &policyv1.Eviction{
		ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}, DeleteOptions: &metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}},
	}))
	if f.cluster.ResourceVersion() != rv {
		t.Fatal("a dry-run eviction wrote something")
	}
}

func TestDiscoveryOffersEviction(t *testing.T) {
	f := newFixture(t)
	list := must(f.client.Discovery().ServerResourcesForGroupVersion("v1"))(t)
	found := map[string]metav1.APIResource{}
	for _, r := range list.APIResources {
		found[r.Name] = r
	}
	if e := found["pods/eviction"]; e.Kind != "Eviction" || e.Group != "policy" || e.Version != "v1" {
		t.Fatalf("pods/eviction: %+v", e)
	}
	if b := found["pods/binding"]; b.Kind != "Binding" {
		t.Fatalf("pods/binding: %+v", b)
	}
	apps := must(f.client.Discovery().ServerResourcesForGroupVersion("apps/v1"))(t)
	var scale bool
	for _, r := range apps.APIResources {
		scale = scale || r.Name == "deployments/scale" && r.Kind == "Scale" && r.Group == "autoscaling"
	}
	if !scale {
		t.Fatal("deployments/scale missing from discovery")
	}
	groups := must(f.client.Discovery().ServerGroups())(t)
	if len(groups.Groups) != 4 {
		t.Fatalf("groups: %+v, want core, apps, policy and argoproj.io", groups.Groups)
	}
}
