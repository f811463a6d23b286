package replicaset

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/ptr"

	"rollscope/engine/control"
)

// Event reasons, as upstream's pod control records them.
const (
	reasonSuccessfulCreate = "SuccessfulCreate"
	reasonFailedCreate     = "FailedCreate"
	reasonSuccessfulDelete = "SuccessfulDelete"
	reasonFailedDelete     = "FailedDelete"
)

// errNoLabels is returned for a template without labels: its pods could never
// be selected, so the owner would create them forever.
var errNoLabels = errors.New("unable to create pods, no labels")

// podFromTemplate builds the pod an owner creates: the template's labels,
// annotations, finalizers and spec, a generated name after the owner's, and
// a controller reference to the owner.
func (c *Controller) podFromTemplate(o owner) *corev1.Pod {
	t := &o.rs.Spec.Template
	gvk := c.kind.gvk()
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:    o.rs.Namespace,
			GenerateName: podNamePrefix(o.rs.Name),
			Labels:       maps.Clone(t.Labels),
			Annotations:  maps.Clone(t.Annotations),
			Finalizers:   slices.Clone(t.Finalizers),
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion:         gvk.GroupVersion().String(),
				Kind:               gvk.Kind,
				Name:               o.rs.Name,
				UID:                o.rs.UID,
				Controller:         ptr.To(true),
				BlockOwnerDeletion: ptr.To(true),
			}},
		},
		Spec: *t.Spec.DeepCopy(),
	}
}

// podNamePrefix is "<owner>-" unless that would not be a valid name prefix
// (too long), in which case the owner's name alone.
func podNamePrefix(ownerName string) string {
	// The API checks a generateName as if its trailing dash were a letter.
	if len(validation.IsDNS1123Subdomain(ownerName+"a")) == 0 {
		return ownerName + "-"
	}
	return ownerName
}

// createPod creates one pod for o and records the outcome on o.
func (c *Controller) createPod(ctx context.Context, o owner) error {
	pod := c.podFromTemplate(o)
	if len(pod.Labels) == 0 {
		return errNoLabels
	}
	name, err := c.create(ctx, pod)
	if err != nil {
		// In a namespace being deleted every create fails; saying so on
		// every owner would only be noise.
		if !apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
			c.event(o, corev1.EventTypeWarning, reasonFailedCreate, "Error creating: %v", err)
		}
		return err
	}
	c.event(o, corev1.EventTypeNormal, reasonSuccessfulCreate, "Created pod: %v", name)
	return nil
}

// create sends pod, built for this creation only, and returns the name the
// API gave it; a client that can store the pod itself is spared copying it.
func (c *Controller) create(ctx context.Context, pod *corev1.Pod) (string, error) {
	created, err := control.CreatePod(ctx, c.env.Client.CoreV1().Pods(pod.Namespace), pod)
	if err != nil {
		return "", err
	}
	return created.Name, nil
}

// deletePod deletes p and records the outcome on o. A pod that is already
// gone is reported as NotFound without an event.
func (c *Controller) deletePod(ctx context.Context, o owner, p *corev1.Pod) error {
	err := c.env.Client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return err
		}
		c.event(o, corev1.EventTypeWarning, reasonFailedDelete, "Error deleting: %v", err)
		return fmt.Errorf("unable to delete pods: %w", err)
	}
	c.event(o, corev1.EventTypeNormal, reasonSuccessfulDelete, "Deleted pod: %v", p.Name)
	return nil
}

func (c *Controller) event(o owner, eventType, reason, format string, args ...any) {
	if c.env.Events != nil {
		c.env.Events.Eventf(o.source, eventType, reason, format, args...)
	}
}
