package memapi_test

import (
	"time"

	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestGracefulPodDeletion(t *testing.T) {
	cases := []struct {
		name      string
		node      string
		phase     corev1.PodPhase
		opts      metav1.DeleteOptions
		wantGrace int64 // 0: removed at once
	}{
		{name: "bound pod uses its own grace period", node: "n1", wantGrace: 30},
		{name: "request grace period wins", node: "n1", opts: metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](5)}, wantGrace: 5},
		{name: "negative grace period means one second", node: "n1", opts: metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](-1)}, wantGrace: 1},
		{name: "grace period 0 removes at once", node: "n1", opts: metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](0)}},
		{name: "unbound pod is removed at once", node: ""},
		{name: "finished pod is removed at once", node: "n1", phase: corev1.PodFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			p := f.runningPod(t, "p", "a", tc.node, true)
			if tc.phase != "" {
				p.Status.Phase = tc.phase
				must(f.client.CoreV1().Pods("default").UpdateStatus(ctx, p, metav1.UpdateOptions{}))(t)
			}
			noErr(t, f.client.CoreV1().Pods("default").Delete(ctx, "p", tc.opts))
			got, err := f.client.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{})
			if tc.wantGrace == 0 {
				if !apierrors.IsNotFound(err) {
					t.Fatalf("pod should be gone, got %v", err)
				}
				return
			}
			noErr(t, err)
			if *got.DeletionGracePeriodSeconds != tc.wantGrace || !got.DeletionTimestamp.Time.Equal(epoch.Add(secs(tc.wantGrace))) {
				t.Fatalf("deletionTimestamp %v grace %d; want now+%ds", got.DeletionTimestamp, *got.DeletionGracePeriodSeconds, tc.wantGrace)
			}
		})
	}
}

func TestGracefulDeletionCanOnlyShorten(t *testing.T) {
	f := newFixture(t)
	pods := f.client.CoreV1().Pods("default")
	f.runningPod(t, "p", "a", "n1", true)
	noErr(t, pods.Delete(ctx, "p", metav1.DeleteOptions{}))
	rv := f.cluster.ResourceVersion()
	noErr(t, pods.Delete(ctx, "p", metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](60)}))
	if f.cluster.ResourceVersion() != rv {
		t.Fatal("a longer grace period must not change a pending deletion")
	}
	noErr(t, pods.Delete(ctx, "p", metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](10)}))
	p := must(pods.Get(ctx, "p", metav1.GetOptions{}))(t)
	if *p.DeletionGracePeriodSeconds != 10 || !p.DeletionTimestamp.Time.Equal(epoch.Add(secs(10))) {
		t.Fatalf("shortened deletion: %v grace %d; want now+10s", p.DeletionTimestamp, *p.DeletionGracePeriodSeconds)
	}
	// What the kubelet does once the containers are gone.
	noErr(t, pods.Delete(ctx, "p", metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](0)}))
	if _, err := pods.Get(ctx, "p", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("grace-0 delete should remove the pod, got %v", err)
	}
}

// rollout builds deployment web → ReplicaSet web-1 → pods web-1-a (bound)
// and web-1-b (unbound), owned the way the controllers own them.
func (f *fixture) rollout(t *testing.T) (*appsv1.Deployment, *appsv1.ReplicaSet) {
	t.Helper()
	d := must(f.client.AppsV1().Deployments("default").Create(ctx, deployment("web", 2), metav1.CreateOptions{}))(t)
	rs := replicaSet("web-1", 2)
	rs.Spec.Selector.MatchLabels, rs.Spec.Template.Labels = labelsOf("web"), labelsOf("web")
	rs.OwnerReferences = ownedBy(d, "Deployment")
	rs = must(f.client.AppsV1().ReplicaSets("default").Create(ctx, rs, metav1.CreateOptions{}))(t)
	for _, name := range []string{"web-1-a", "web-1-b"} {
		p := pod(name, "web")
		p.OwnerReferences = ownedBy(rs, "ReplicaSet")
		must(f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}))(t)
	}
	noErr(t, f.client.CoreV1().Pods("default").Bind(ctx, &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: "web-1-a", Namespace: "default"}, Target: corev1.ObjectReference{Name: "n1"},
	}, metav1.CreateOptions{}))
	return d, rs
}

func TestCascadingDeletion(t *testing.T) {
	type state struct {
		rsExists, aExists, aDeleting, bExists bool
		rsOwned, aOwned                       bool
	}
	cases := []struct {
		policy metav1.DeletionPropagation
		want   state
	}{
		{"", state{aExists: true, aDeleting: true}},
		{metav1.DeletePropagationBackground, state{aExists: true, aDeleting: true}},
		{metav1.DeletePropagationForeground, state{aExists: true, aDeleting: true}},
		{metav1.DeletePropagationOrphan, state{rsExists: true, aExists: true, bExists: true, aOwned: true}},
	}
	for _, tc := range cases {
		t.Run(string(tc.policy), func(t *testing.T) {
			f := newFixture(t)
			f.rollout(t)
			opts := metav1.DeleteOptions{}
			if tc.policy != "" {
				opts.PropagationPolicy = &tc.policy
			}
			noErr(t, f.client.AppsV1().Deployments("default").Delete(ctx, "web", opts))

			var got state
			if rs, err := f.client.AppsV1().ReplicaSets("default").Get(ctx, "web-1", metav1.GetOptions{}); err == nil {
				got.rsExists, got.rsOwned = true, len(rs.OwnerReferences) > 0
			}
			if a, err := f.client.CoreV1().Pods("default").Get(ctx, "web-1-a", metav1.GetOptions{}); err == nil {
				got.aExists, got.aDeleting, got.aOwned = true, a.DeletionTimestamp != nil, len(a.OwnerReferences) > 0
			}
			_, err := f.client.CoreV1().Pods("default").Get(ctx, "web-1-b", metav1.GetOptions{})
			got.bExists = err == nil
			if tc.policy != metav1.DeletePropagationOrphan {
				tc.want.aOwned = true // a terminating pod keeps its (now dangling) owner reference
			}
			if got != tc.want {
				t.Fatalf("after delete: %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestGarbageCollectionKeepsDependentsWithAnotherOwner(t *testing.T) {
	f := newFixture(t)
	_, rs := f.rollout(t)
	other := must(f.client.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, metav1.CreateOptions{}))(t)
	p := must(f.client.CoreV1().Pods("default").Get(ctx, "web-1-b", metav1.GetOptions{}))(t)
	p.OwnerReferences = append(p.OwnerReferences, metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: other.Name, UID: other.UID})
	must(f.client.CoreV1().Pods("default").Update(ctx, p, metav1.UpdateOptions{}))(t)

	noErr(t, f.client.AppsV1().ReplicaSets("default").Delete(ctx, rs.Name, metav1.DeleteOptions{}))
	p = must(f.client.CoreV1().Pods("default").Get(ctx, "web-1-b", metav1.GetOptions{}))(t)
	if len(p.OwnerReferences) != 1 || p.OwnerReferences[0].UID != other.UID {
		t.Fatalf("pod with a surviving owner should only lose the gone owner's reference: %+v", p.OwnerReferences)
	}
}

func TestDeletingANamespaceEmptiesIt(t *testing.T) {
	f := newFixture(t)
	must(f.client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}}, metav1.CreateOptions{}))(t)
	p := pod("p", "a")
	p.Namespace = "team"
	must(f.client.CoreV1().Pods("team").Create(ctx, p, metav1.CreateOptions{}))(t)
	noErr(t, f.client.CoreV1().Namespaces().Delete(ctx, "team", metav1.DeleteOptions{}))
	if _, err := f.client.CoreV1().Pods("team").Get(ctx, "p", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("pod survived its namespace: %v", err)
	}
	if _, err := f.client.CoreV1().Pods("team").Create(ctx, p, metav1.CreateOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("create in a deleted namespace: %v", err)
	}
}

func secs(n int64) time.Duration { return time.Duration(n) * time.Second }
