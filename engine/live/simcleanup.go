package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"

	"rollscope/kube/objects"
)

// NamespaceGoneTimeout is how long Cleanup waits for the run's namespace
// to go. Its pods stop on the hollow nodes within seconds; a cluster's real
// kubelets may take their pods' whole grace period.
var NamespaceGoneTimeout = time.Minute

// LeftBehind is a cleanup that could not remove everything: what is left,
// and the kubectl commands that remove it.
type LeftBehind struct {
	What     []string
	Commands []string
	Err      error
}

// Error names what is left and how to remove it; the causes stay in Err,
// out of the line.
func (l *LeftBehind) Error() string {
	return fmt.Sprintf("left behind %s — remove with: %s", strings.Join(l.What, " and "), strings.Join(l.Commands, "; "))
}

func (l *LeftBehind) Unwrap() error { return l.Err }

// Cleanup removes what the run made: it deletes the namespace and waits
// (NamespaceGoneTimeout) for it to go while the hollow kubelets stop its
// pods, then stops the hollow nodes and deletes their Node objects. A
// namespace still terminating after the wait is said through Progress and
// is not an error: it goes on its own. Cleanup can be called more than
// once; ctx bounds it (a second Ctrl-C).
func (r *Run) Cleanup(ctx context.Context) error {
	r.mu.Lock()
	r.ended = true
	r.mu.Unlock()
	left := &LeftBehind{}
	var errs []error
	if r.madeNamespace {
		if err := r.deleteNamespace(ctx); err != nil {
			left.What = append(left.What, "namespace "+r.Namespace)
			left.Commands = append(left.Commands, "kubectl delete namespace "+r.Namespace)
			errs = append(errs, err)
		} else {
			r.madeNamespace = false
		}
	}
	if r.stop != nil {
		r.stop()
		if err := <-r.done; err != nil {
			errs = append(errs, fmt.Errorf("stopping the hollow nodes: %w", err))
		}
		r.stop = nil
	}
	if r.nodesStarted {
		if err := r.nodes.Delete(ctx, r.client); err != nil {
			selector := labels.Set{LabelSimulation: r.Namespace}.String()
			left.What = append(left.What, "the hollow nodes labelled "+selector)
			left.Commands = append(left.Commands, "kubectl delete nodes -l "+selector)
			errs = append(errs, err)
		} else {
			r.nodesStarted = false
		}
	}
	if len(left.What) == 0 {
		return errors.Join(errs...)
	}
	left.Err = errors.Join(errs...)
	return left
}

// deleteNamespace deletes the run's namespace and waits a while for it to
// go. Only a refused delete is an error.
func (r *Run) deleteNamespace(ctx context.Context) error {
	r.progress("deleting namespace %s", r.Namespace)
	r.deleteWorkloads(ctx)
	err := r.client.CoreV1().Namespaces().Delete(ctx, r.Namespace, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deleting namespace %s: %w", r.Namespace, err)
	}
	if r.nodesStarted {
		r.stopHollowPods(ctx)
	}
	gone := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, NamespaceGoneTimeout, true, func(ctx context.Context) (bool, error) {
		_, err := r.client.CoreV1().Namespaces().Get(ctx, r.Namespace, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	if gone != nil {
		r.progress("namespace %s is still terminating; it goes once its pods have stopped (kubectl get namespace %s)", r.Namespace, r.Namespace)
	}
	return nil
}

// deleteWorkloads deletes the run's workloads before their pods go, so that
// each one's last state in the API is its state at the end of the run, as
// the trace's last line shows it, for anyone who watched the run. The
// namespace's deletion removes whatever a failure here leaves.
func (r *Run) deleteWorkloads(ctx context.Context) {
	all, ns := metav1.ListOptions{}, r.Namespace
	background := metav1.DeletePropagationBackground
	del := metav1.DeleteOptions{PropagationPolicy: &background}
	for _, row := range objects.Builtin() {
		_ = row.DeleteAll(ctx, r.client, ns, del)
	}
	_ = r.client.AppsV1().ReplicaSets(ns).DeleteCollection(ctx, del, all)
}

// stopHollowPods removes the pods of the deleted namespace at once: pods on
// hollow nodes run nothing, and the namespace controller would otherwise
// wait out their grace periods before the namespace goes. The terminating
// namespace takes no new pods. A failure is left to the namespace's own
// deletion, which removes them anyway.
func (r *Run) stopHollowPods(ctx context.Context) {
	now := int64(0)
	_ = r.client.CoreV1().Pods(r.Namespace).DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: &now}, metav1.ListOptions{})
}
