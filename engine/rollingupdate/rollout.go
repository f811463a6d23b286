package rollingupdate

import (
	"context"
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// forward continues an update from old to next, first making sure next
// carries the annotations a crash or an older kubectl may have left out. A
// run that finds the next controller already there says so first, in
// kubectl's words.
func (u *Updater) forward(ctx context.Context, req Request, old, next *corev1.ReplicationController, s *Session) (Outcome, error) {
	var lines []string
	if req.Image != "" {
		c, err := container(&next.Spec.Template.Spec, req.Container)
		if err != nil {
			return Outcome{}, err
		}
		if c.Image != req.Image {
			return Outcome{}, badRequest("Found existing in-progress update to image (%s).\nEither continue in-progress update with --image=%s or rollback with --rollback", c.Image, c.Image)
		}
		if !s.announced && !s.resumed {
			s.resumed = true
			lines = []string{resumeLine(next.Name)}
		}
	}
	o, err := u.forwardStep(ctx, req, old, next, s)
	o.Lines = append(lines, o.Lines...)
	return o, err
}

func (u *Updater) forwardStep(ctx context.Context, req Request, old, next *corev1.ReplicationController, s *Session) (Outcome, error) {
	src, hasSrc := next.Annotations[SourceAnnotation]
	if hasSrc && src != sourceID(old) {
		return Outcome{}, badRequest("Missing/unexpected annotations for controller %s, expected %s : %s", next.Name, sourceID(old), src)
	}
	if _, ok := annotationInt(next, DesiredAnnotation); !ok || !hasSrc || (req.Driver != "" && next.Annotations[DriverAnnotation] != req.Driver) {
		// A partial rollout that lost its annotations: the desired size is
		// the old controller's size before the update.
		rc := next.DeepCopy()
		if rc.Annotations == nil {
			rc.Annotations = map[string]string{}
		}
		if _, ok := annotationInt(next, DesiredAnnotation); !ok {
			desired, ok := annotationInt(old, OriginalAnnotation)
			if !ok {
				desired = size(old) + size(next)
			}
			rc.Annotations[DesiredAnnotation] = strconv.Itoa(int(desired))
		}
		rc.Annotations[SourceAnnotation] = sourceID(old)
		if req.Driver != "" {
			rc.Annotations[DriverAnnotation] = req.Driver
		}
		return u.write(PhaseRollout, 0, u.update(ctx, rc))
	}
	if _, ok := annotationInt(old, OriginalAnnotation); !ok || old.Annotations[NextAnnotation] != next.Name {
		rc := old.DeepCopy()
		if rc.Annotations == nil {
			rc.Annotations = map[string]string{}
		}
		if _, ok := annotationInt(old, OriginalAnnotation); !ok {
			rc.Annotations[OriginalAnnotation] = strconv.Itoa(int(size(old)))
		}
		rc.Annotations[NextAnnotation] = next.Name
		return u.write(PhaseRollout, 0, u.update(ctx, rc))
	}
	return u.rollout(ctx, req, old, next, s)
}

// rollback makes the old controller the target again: it takes the
// update-source-id and its original size as desired-replicas, then the next
// controller loses its own target annotations, and the rollout runs with the
// roles swapped. The order leaves the old controller marked first, so a
// crash in between still reads as a rollback.
func (u *Updater) rollback(ctx context.Context, req Request, old, next *corev1.ReplicationController, s *Session) (Outcome, error) {
	if old.Annotations[SourceAnnotation] != sourceID(next) {
		original, ok := annotationInt(old, OriginalAnnotation)
		if !ok {
			return Outcome{}, badRequest("couldn't find original replica count of %q", old.Name)
		}
		rc := old.DeepCopy()
		rc.Annotations[SourceAnnotation] = sourceID(next)
		rc.Annotations[DesiredAnnotation] = strconv.Itoa(int(original))
		o, err := u.write(PhaseRollback, 0, u.update(ctx, rc))
		o.Lines = wrote(err, fmt.Sprintf("Setting %q replicas to %d\n", old.Name, original))
		return o, err
	}
	if _, ok := next.Annotations[SourceAnnotation]; ok || next.Annotations[DesiredAnnotation] != "" || next.Annotations[RenameAnnotation] != "" {
		rc := next.DeepCopy()
		delete(rc.Annotations, SourceAnnotation)
		delete(rc.Annotations, DesiredAnnotation)
		delete(rc.Annotations, RenameAnnotation)
		return u.write(PhaseRollback, 0, u.update(ctx, rc))
	}
	return u.rollout(ctx, req, next, old, s)
}

// rollout takes one step of moving pods from source to target, then the
// clean-up: delete the source; a target that must take the source's name is
// renamed by the steps that follow (see Step).
func (u *Updater) rollout(ctx context.Context, req Request, source, target *corev1.ReplicationController, s *Session) (Outcome, error) {
	var lines []string
	if !s.announced {
		s.announced = true
		lines = append(lines, startLine(target.Name, true))
	}
	desired, _ := annotationInt(target, DesiredAnnotation)
	l, err := NewLimits(desired, size(source), *req.MaxSurge, *req.MaxUnavailable)
	if err != nil {
		return Outcome{}, badRequest("%v", err)
	}
	if !s.planned {
		s.planned = true
		lines = append(lines, planLine(l, source.Name, target.Name, size(source), size(target)))
	}
	poll, period := time.Duration(req.PollInterval), time.Duration(req.UpdatePeriod)
	if !settled(source) || !settled(target) {
		// Upstream scales and then waits for the controller to reach its
		// size before the next decision.
		return Outcome{Phase: PhaseRollout, Wait: poll, Lines: lines}, nil
	}
	if s.periodAfterSettle {
		s.periodAfterSettle = false
		return Outcome{Phase: PhaseRollout, Wait: period, Lines: lines}, nil
	}
	d, err := Next(l, size(source), size(target), func() (int32, error) {
		return u.available(ctx, target)
	})
	if err != nil {
		return Outcome{}, err
	}
	switch d.Move {
	case ScaleNext:
		o, err := u.write(PhaseRollout, poll, u.scale(ctx, target, d.To))
		o.Lines = append(lines, wrote(err, scaleLine(target.Name, "up", d.To))...)
		s.periodAfterSettle = err == nil
		return o, err
	case ScaleOld:
		o, err := u.write(PhaseRollout, 0, u.scale(ctx, source, d.To))
		o.Lines = append(lines, wrote(err, scaleLine(source.Name, "down", d.To))...)
		return o, err
	case Hold:
		return Outcome{Phase: PhaseRollout, Wait: period, Lines: lines}, nil
	}
	o, err := u.write(PhaseFinish, 0, u.deleteRC(ctx, source, metav1.DeletePropagationBackground))
	if target.Annotations[RenameAnnotation] == source.Name {
		o.Lines = append(lines, wrote(err, fmt.Sprintf("Update succeeded. Deleting old controller: %s\n", source.Name))...)
	} else {
		o.Lines = append(lines, wrote(err, fmt.Sprintf("Update succeeded. Deleting %s\n", source.Name))...)
	}
	return o, err
}

// settled reports whether rc's controller has acted on its latest spec and
// runs the pods it asks for.
func settled(rc *corev1.ReplicationController) bool {
	return rc.Status.ObservedGeneration >= rc.Generation && rc.Status.Replicas == size(rc)
}

func (u *Updater) scale(ctx context.Context, rc *corev1.ReplicationController, to int32) error {
	rc = rc.DeepCopy()
	rc.Spec.Replicas = &to
	return u.update(ctx, rc)
}

// available counts rc's available pods (minReadySeconds on the cluster's
// clock, not terminating), by its selector.
func (u *Updater) available(ctx context.Context, rc *corev1.ReplicationController) (int32, error) {
	pods, err := u.pods(ctx, rc.Spec.Selector)
	if err != nil {
		return 0, err
	}
	var n int32
	for i := range pods {
		if pods[i].DeletionTimestamp == nil && model.IsPodAvailable(&pods[i], rc.Spec.MinReadySeconds, u.now()) {
			n++
		}
	}
	return n, nil
}

func (u *Updater) now() time.Time {
	if u.Now == nil {
		return time.Now()
	}
	return u.Now()
}
