package statefulset

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// The identity labels every StatefulSet pod carries.
const (
	podNameLabel  = appsv1.StatefulSetPodNameLabel
	podIndexLabel = appsv1.PodIndexLabel
)

// newPod is the set's pod at ordinal (newStatefulSetPod): the template, the
// identity labels, hostname and subdomain, owned by the set.
func newPod(set *appsv1.StatefulSet, ordinal int) *corev1.Pod {
	t := &set.Spec.Template
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:            model.StatefulPodName(set.Name, ordinal),
			Namespace:       set.Namespace,
			Labels:          maps.Clone(t.Labels),
			Annotations:     maps.Clone(t.Annotations),
			Finalizers:      slices.Clone(t.Finalizers),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(set, controllerKind)},
		},
		Spec: *t.Spec.DeepCopy(),
	}
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	p.Labels[podNameLabel] = p.Name
	p.Labels[podIndexLabel] = strconv.Itoa(ordinal)
	p.Spec.Hostname = p.Name
	p.Spec.Subdomain = set.Spec.ServiceName
	return p
}

// newVersionedPod is the pod to create at ordinal: below the partition from
// the current revision, else from the update revision
// (newVersionedStatefulSetPod).
func newVersionedPod(currentSet, updateSet *appsv1.StatefulSet, current, update string, ordinal int) *corev1.Pod {
	start := model.StatefulSetStartOrdinal(currentSet)
	ru := currentSet.Spec.UpdateStrategy.RollingUpdate
	rolling := currentSet.Spec.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType
	// Upstream's condition, grouping included: (rolling && no rollingUpdate
	// && below start) || (rollingUpdate set && below start+partition).
	if (rolling && ru == nil && ordinal < start) || (ru != nil && ordinal < start+int(model.StatefulSetPartition(currentSet))) {
		p := newPod(currentSet, ordinal)
		p.Labels[model.RevisionHashLabel] = current
		return p
	}
	p := newPod(updateSet, ordinal)
	p.Labels[model.RevisionHashLabel] = update
	return p
}

// identityMatches reports whether the pod carries the identity its ordinal
// gives it.
func identityMatches(set *appsv1.StatefulSet, p *corev1.Pod) bool {
	parent, ordinal := model.StatefulPodOrdinal(p.Name)
	return ordinal >= 0 && parent == set.Name && p.Namespace == set.Namespace &&
		p.Labels[podNameLabel] == p.Name && p.Labels[podIndexLabel] == strconv.Itoa(ordinal)
}

// recordPodEvent words the event as upstream's StatefulPodControl does.
func (c *Controller) recordPodEvent(verb string, set *appsv1.StatefulSet, p *corev1.Pod, err error) {
	if c.env.Events == nil {
		return
	}
	title := strings.ToUpper(verb[:1]) + verb[1:]
	if err == nil {
		c.env.Events.Eventf(set, corev1.EventTypeNormal, "Successful"+title, "%s Pod %s in StatefulSet %s successful", verb, p.Name, set.Name)
		return
	}
	c.env.Events.Eventf(set, corev1.EventTypeWarning, "Failed"+title, "%s Pod %s in StatefulSet %s failed error: %s", verb, p.Name, set.Name, err)
}

func (c *Controller) createPod(ctx context.Context, set *appsv1.StatefulSet, p *corev1.Pod) error {
	_, err := c.env.Client.CoreV1().Pods(set.Namespace).Create(ctx, p, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		// The cache is behind: the next sync sees the pod.
		return err
	}
	c.recordPodEvent("create", set, p, err)
	return err
}

func (c *Controller) deletePod(ctx context.Context, set *appsv1.StatefulSet, p *corev1.Pod) error {
	err := c.env.Client.CoreV1().Pods(set.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	c.recordPodEvent("delete", set, p, err)
	return err
}

// updateIdentity restores a pod's identity labels (UpdateStatefulPod).
func (c *Controller) updateIdentity(ctx context.Context, set *appsv1.StatefulSet, p *corev1.Pod) error {
	_, ordinal := model.StatefulPodOrdinal(p.Name)
	p = p.DeepCopy()
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	p.Labels[podNameLabel] = p.Name
	p.Labels[podIndexLabel] = strconv.Itoa(ordinal)
	_, err := c.env.Client.CoreV1().Pods(set.Namespace).Update(ctx, p, metav1.UpdateOptions{})
	c.recordPodEvent("update", set, p, err)
	if err != nil {
		return fmt.Errorf("restore the identity of pod %s: %w", p.Name, err)
	}
	return nil
}
