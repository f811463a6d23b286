// Package e2etest holds what the end-to-end packages share on a real
// control plane: starting it with hollow nodes and the rollscope binary
// (Start, one Setup a package; ForPackage when one cluster serves every
// test of a package), waiting on the cluster with the last state
// seen, node readiness, and a namespace ready for pods.
package e2etest

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
)

// Check reads the cluster once: whether the wait is over, and a few words
// on what it saw, for the failure message. An error is retried: the API
// server may be away on purpose (the fault tests stop it).
type Check func(ctx context.Context) (done bool, state string, err error)

// Poll waits until check says done, every 200 ms for up to patience, and
// fails the test with the last state seen. patience only bounds a failing
// test: nothing here asserts how fast the cluster is.
func Poll(t testing.TB, patience time.Duration, what string, check Check) {
	t.Helper()
	last := "nothing read yet"
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, patience, true, func(ctx context.Context) (bool, error) {
		done, state, err := check(ctx)
		if err != nil {
			last = "error: " + err.Error()
			return false, nil
		}
		last = state
		return done, nil
	})
	if err != nil {
		t.Fatalf("waiting for %s: %v; last seen: %s", what, err, last)
	}
}

// HasTaint reports whether the node carries a taint with this key.
func HasTaint(n *corev1.Node, key string) bool {
	for _, taint := range n.Spec.Taints {
		if taint.Key == key {
			return true
		}
	}
	return false
}

// Schedulable reports whether new pods may land on the node: Ready, and no
// NoSchedule taint (the not-ready taint a registering node starts with).
func Schedulable(n *corev1.Node) bool {
	for _, taint := range n.Spec.Taints {
		if taint.Effect == corev1.TaintEffectNoSchedule {
			return false
		}
	}
	return model.NodeReady(n)
}

// Namespace creates namespace ns and waits for its default service account,
// without which the API server refuses pods (and the controller manager
// backs off, which tests would then measure).
func Namespace(t testing.TB, client kubernetes.Interface, ns string, patience time.Duration) {
	t.Helper()
	if _, err := client.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating namespace %s: %v", ns, err)
	}
	Poll(t, patience, "the default service account of "+ns, func(ctx context.Context) (bool, string, error) {
		_, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, "not there yet", nil
	})
}

// WaitSchedulable waits until want nodes are Schedulable: hollow nodes
// registered, Ready, and rid of the not-ready taint they start with.
func WaitSchedulable(t testing.TB, client kubernetes.Interface, want int, patience time.Duration) {
	t.Helper()
	Poll(t, patience, fmt.Sprintf("%d schedulable nodes", want), func(ctx context.Context) (bool, string, error) {
		list, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		ready := 0
		for _, n := range list.Items {
			if Schedulable(&n) && !n.Spec.Unschedulable {
				ready++
			}
		}
		return ready == want, fmt.Sprintf("%d of %d nodes schedulable", ready, len(list.Items)), nil
	})
}
