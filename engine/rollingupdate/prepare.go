package rollingupdate

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// prepare takes one step of setting the update up, in kubectl 1.17's order,
// where every prefix is safe to stop after: the deployment label on the old
// controller's template together with the next controller's name, the label
// on its pods, then on its selector (upstream's
// UpdateExistingReplicationController and AddDeploymentKeyToReplicationController),
// then the next controller, created at size zero; forward then records the
// original size on the old one, as kubectl's updater does.
func (u *Updater) prepare(ctx context.Context, req Request, old *corev1.ReplicationController, s *Session) (Outcome, error) {
	key := req.DeploymentKey
	c, err := container(&old.Spec.Template.Spec, req.Container)
	if err != nil {
		return Outcome{}, err
	}
	if c.Image == req.Image && req.ImagePullPolicy == "" {
		return Outcome{}, badRequest("replicationcontroller %q already runs %s: --image-pull-policy (Always|Never|IfNotPresent) must be given when the image does not change", old.Name, req.Image)
	}
	next, err := nextController(old, req)
	if err != nil {
		return Outcome{}, err
	}
	value := old.Spec.Template.Labels[key]
	if value == "" {
		rc := old.DeepCopy()
		if rc.Spec.Template.Labels == nil {
			rc.Spec.Template.Labels = map[string]string{}
		}
		rc.Spec.Template.Labels[key] = origValue(old, key)
		if rc.Annotations == nil {
			rc.Annotations = map[string]string{}
		}
		rc.Annotations[NextAnnotation] = next.Name
		return u.write(PhasePrepare, 0, u.update(ctx, rc))
	}
	if old.Spec.Selector[key] != value {
		pods, err := u.pods(ctx, old.Spec.Selector)
		if err != nil {
			return Outcome{}, err
		}
		for i := range pods {
			p := &pods[i]
			if p.Labels[key] == value || p.DeletionTimestamp != nil {
				continue
			}
			p = p.DeepCopy()
			p.Labels[key] = value
			if _, err := u.Client.CoreV1().Pods(u.Namespace).Update(ctx, p, metav1.UpdateOptions{}); err != nil {
				return Outcome{}, fmt.Errorf("label pod %q of replicationcontroller %q with %s=%s: %w", p.Name, old.Name, key, value, err)
			}
			return u.write(PhasePrepare, 0, nil)
		}
		rc := old.DeepCopy()
		if rc.Spec.Selector == nil {
			rc.Spec.Selector = map[string]string{}
		}
		rc.Spec.Selector[key] = value
		return u.write(PhasePrepare, 0, u.update(ctx, rc))
	}
	// Pods the old selector matched but that missed the label (created
	// between the two writes above) would be nobody's: delete them.
	unlabelled := maps.Clone(old.Spec.Selector)
	delete(unlabelled, key)
	pods, err := u.pods(ctx, unlabelled)
	if err != nil {
		return Outcome{}, err
	}
	for i := range pods {
		p := &pods[i]
		if _, ok := p.Labels[key]; ok || p.DeletionTimestamp != nil {
			continue
		}
		err := u.Client.CoreV1().Pods(u.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return Outcome{}, fmt.Errorf("delete unlabelled pod %q of replicationcontroller %q: %w", p.Name, old.Name, err)
		}
		return u.write(PhasePrepare, 0, nil)
	}
	if old.Annotations[NextAnnotation] != next.Name {
		rc := old.DeepCopy()
		if rc.Annotations == nil {
			rc.Annotations = map[string]string{}
		}
		rc.Annotations[NextAnnotation] = next.Name
		return u.write(PhasePrepare, 0, u.update(ctx, rc))
	}
	desired, _ := annotationInt(old, OriginalAnnotation)
	if desired == 0 && size(old) > 0 {
		desired = size(old)
	}
	if desired <= 0 {
		return Outcome{}, badRequest("replicationcontroller %q has 0 replicas: an update needs at least 1 (scale it up first)", old.Name)
	}
	next.Annotations[DesiredAnnotation] = strconv.Itoa(int(desired))
	next.Annotations[SourceAnnotation] = sourceID(old)
	if req.Next == "" {
		next.Annotations[RenameAnnotation] = old.Name
	}
	if req.Driver != "" {
		next.Annotations[DriverAnnotation] = req.Driver
	}
	if _, err := u.Client.CoreV1().ReplicationControllers(u.Namespace).Create(ctx, next, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return Outcome{}, fmt.Errorf("create replicationcontroller %q for the update of %q: %w", next.Name, old.Name, err)
	}
	s.announced = true
	o, err := u.write(PhaseRollout, 0, nil)
	o.Lines = []string{startLine(next.Name, false)}
	return o, err
}

// nextController builds the next controller from old: its labels and the
// user's annotations, the new image (and pull policy), the deployment label
// set to the hash of the new spec (see updateHash), at size zero. The hash
// ignores the old controller's own deployment label, so it comes out the
// same before and after old is labelled.
func nextController(old *corev1.ReplicationController, req Request) (*corev1.ReplicationController, error) {
	key := req.DeploymentKey
	tmpl := old.Spec.Template.DeepCopy()
	if tmpl == nil {
		return nil, badRequest("replicationcontroller %q has no pod template", old.Name)
	}
	delete(tmpl.Labels, key)
	delete(tmpl.Labels, RenamingLabel)
	c, err := container(&tmpl.Spec, req.Container)
	if err != nil {
		return nil, err
	}
	c.Image = req.Image
	if req.ImagePullPolicy != "" {
		c.ImagePullPolicy = corev1.PullPolicy(req.ImagePullPolicy)
	}
	hash := updateHash(old, corev1.ReplicationControllerSpec{Selector: old.Spec.Selector, MinReadySeconds: old.Spec.MinReadySeconds, Template: tmpl}, key)
	if tmpl.Labels == nil {
		tmpl.Labels = map[string]string{}
	}
	tmpl.Labels[key] = hash
	selector := maps.Clone(old.Spec.Selector)
	if selector == nil {
		selector = map[string]string{}
	}
	selector[key] = hash
	name := req.Next
	if name == "" {
		name = old.Name + "-" + hash
	}
	zero := int32(0)
	return &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Namespace:   old.Namespace,
			Labels:      maps.Clone(old.Labels),
			Annotations: userAnnotations(old),
		},
		Spec: corev1.ReplicationControllerSpec{
			Replicas:        &zero,
			MinReadySeconds: old.Spec.MinReadySeconds,
			Selector:        selector,
			Template:        tmpl,
		},
	}, nil
}

// renamedCopy is next under the old name, without the update's annotations,
// at size zero and selecting no pod yet (see RenamingAnnotation).
func renamedCopy(next *corev1.ReplicationController, name string) *corev1.ReplicationController {
	rc := &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Namespace:   next.Namespace,
			Labels:      maps.Clone(next.Labels),
			Annotations: maps.Clone(next.Annotations),
		},
		Spec: *next.Spec.DeepCopy(),
	}
	for _, a := range rolloutAnnotations {
		delete(rc.Annotations, a)
	}
	if rc.Annotations == nil {
		rc.Annotations = map[string]string{}
	}
	rc.Annotations[RenamingAnnotation] = strconv.Itoa(int(size(next)))
	if d := next.Annotations[DriverAnnotation]; d != "" {
		rc.Annotations[DriverAnnotation] = d
	}
	zero := int32(0)
	rc.Spec.Replicas = &zero
	if rc.Spec.Selector == nil {
		rc.Spec.Selector = map[string]string{}
	}
	rc.Spec.Selector[RenamingLabel] = "true"
	if rc.Spec.Template != nil {
		if rc.Spec.Template.Labels == nil {
			rc.Spec.Template.Labels = map[string]string{}
		}
		rc.Spec.Template.Labels[RenamingLabel] = "true"
	}
	return rc
}

// renamed is the copy made by renamedCopy, now selecting the orphaned pods
// of the next controller at its size.
func renamed(rc *corev1.ReplicationController) *corev1.ReplicationController {
	rc = rc.DeepCopy()
	n, _ := annotationInt(rc, RenamingAnnotation)
	rc.Spec.Replicas = &n
	delete(rc.Annotations, RenamingAnnotation)
	delete(rc.Annotations, DriverAnnotation)
	delete(rc.Spec.Selector, RenamingLabel)
	if rc.Spec.Template != nil {
		delete(rc.Spec.Template.Labels, RenamingLabel)
	}
	return rc
}

// container finds the container whose image changes: the named one, or the
// only one. With several and none named it refuses, as kubectl 1.17 did,
// rather than guess.
func container(spec *corev1.PodSpec, name string) (*corev1.Container, error) {
	if len(spec.Containers) == 0 {
		return nil, badRequest("the pod template has no containers")
	}
	if name == "" && len(spec.Containers) > 1 {
		names := make([]string, len(spec.Containers))
		for i, c := range spec.Containers {
			names[i] = c.Name
		}
		return nil, badRequest("must specify container to update when updating a multi-container pod: the pod template has %s; give --container", strings.Join(names, ", "))
	}
	if name == "" {
		return &spec.Containers[0], nil
	}
	for i := range spec.Containers {
		if spec.Containers[i].Name == name {
			return &spec.Containers[i], nil
		}
	}
	return nil, badRequest("the pod template has no container %q", name)
}

// pods lists the pods selector matches.
func (u *Updater) pods(ctx context.Context, selector map[string]string) ([]corev1.Pod, error) {
	if len(selector) == 0 {
		return nil, nil
	}
	list, err := u.Client.CoreV1().Pods(u.Namespace).List(ctx, metav1.ListOptions{LabelSelector: labels.SelectorFromSet(selector).String()})
	if err != nil {
		return nil, fmt.Errorf("list pods matching %v in %q: %w", selector, u.Namespace, err)
	}
	return list.Items, nil
}
