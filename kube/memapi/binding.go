package memapi

import (
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/watch"
)

// bind handles POST pods/binding, the scheduler's way of placing a pod: it
// sets spec.nodeName once (409 if the pod is already bound) and records a
// PodScheduled=True condition. The caller holds c.mu.
func (c *Cluster) bind(t *table, namespace string, b *corev1.Binding, opts metav1.CreateOptions) error {
	if b == nil {
		return apierrors.NewBadRequest("expected a v1 Binding")
	}
	if namespace == "" {
		namespace = b.Namespace
	}
	if namespace == "" {
		// client-go's typed fake sends the Binding's namespace, not the
		// client's, so an empty one cannot be recovered.
		return apierrors.NewBadRequest(fmt.Sprintf("the Binding for pod %q has no metadata.namespace: set it to the pod's namespace", b.Name))
	}
	var errs field.ErrorList
	if b.Target.Kind != "" && b.Target.Kind != "Node" {
		errs = append(errs, field.NotSupported(field.NewPath("target", "kind"), b.Target.Kind, []string{"Node", "<empty>"}))
	}
	if b.Target.Name == "" {
		errs = append(errs, field.Required(field.NewPath("target", "name"), ""))
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(schema.GroupKind{Kind: "Binding"}, b.Name, errs)
	}
	cur := t.get(namespace, b.Name)
	if cur == nil {
		return apierrors.NewNotFound(t.kind.groupResource(), b.Name)
	}
	pod := cur.(*corev1.Pod)
	if err := checkPreconditions(t.kind, pod, b.UID, b.ResourceVersion); err != nil {
		return err
	}
	switch {
	case pod.DeletionTimestamp != nil:
		return apierrors.NewInternalError(fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", pod.Name))
	case pod.Spec.NodeName != "":
		return apierrors.NewConflict(corev1.Resource("pods/binding"), pod.Name, fmt.Errorf("pod %v is already assigned to node %q", pod.Name, pod.Spec.NodeName))
	case len(pod.Spec.SchedulingGates) > 0:
		return apierrors.NewInternalError(fmt.Errorf("pod %v has non-empty .spec.schedulingGates", pod.Name))
	}
	if isDryRun(opts.DryRun) {
		return nil
	}
	next := newVersion(pod).(*corev1.Pod)
	next.Spec.NodeName = b.Target.Name
	if len(b.Annotations) > 0 {
		next.Annotations = maps.Clone(next.Annotations) // shared with the stored pod
	}
	for k, v := range b.Annotations {
		setAnnotation(&next.Annotations, k, v)
	}
	setPodCondition(&next.Status, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}, c.now())
	c.commit(t, watch.Modified, next, cur)
	return nil
}

// setPodCondition adds or replaces a pod condition; the transition time
// moves only when the status changes, as upstream's helper does.
func setPodCondition(status *corev1.PodStatus, cond corev1.PodCondition, now metav1.Time) {
	cond.LastTransitionTime = now
	for i := range status.Conditions {
		if status.Conditions[i].Type != cond.Type {
			continue
		}
		if status.Conditions[i].Status == cond.Status {
			cond.LastTransitionTime = status.Conditions[i].LastTransitionTime
		}
		status.Conditions[i] = cond
		return
	}
	status.Conditions = append(status.Conditions, cond)
}
