package rollingupdate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
)

// Phase is where an update stands, as read from the objects.
type Phase = model.RCPhase

// The phases the console and the progress lines name.
const (
	PhasePrepare  = model.RCPhasePrepare
	PhaseRollout  = model.RCPhaseRollout
	PhaseRename   = model.RCPhaseRename
	PhaseFinish   = model.RCPhaseFinish
	PhaseDone     = model.RCPhaseDone
	PhaseRollback = model.RCPhaseRollback
)

// Outcome is what one step did and when the next is due.
type Outcome struct {
	Phase Phase
	// Wrote is true when the step changed an object: progress, for --timeout.
	Wrote bool
	// Wait is how long to wait before the next step.
	Wait time.Duration
	// Done is true once the update has finished; no further step is needed.
	Done bool
	// Lines are kubectl's progress lines for what this step did.
	Lines []string
	// Next is the next controller's name, once known.
	Next string
}

// Updater runs the steps of updates in one namespace.
type Updater struct {
	Client    kubernetes.Interface
	Namespace string
	// Now is the cluster's clock (virtual in the embedded cluster), for
	// minReadySeconds.
	Now func() time.Time
}

// Session remembers what a driver already printed, so that the opening lines
// appear once per run, and whether the update period after its last
// scale-up is still to be waited. It holds no state of the update itself: a
// new Session (a run after a crash) only prints the opening lines again and
// goes straight to the next decision, which the availability rules keep
// safe.
type Session struct {
	announced, planned, resumed bool
	// periodAfterSettle is set by a scale-up: the update period starts once
	// the controller reports the new count, as kubectl's updater waits for
	// the scale and then sleeps the period, so that the new pods have the
	// whole period to become available.
	periodAfterSettle bool
}

// errBadRequest marks errors running again cannot fix.
var errBadRequest = errors.New("bad request")

// IsBadRequest reports whether err is the request's fault (unknown
// controller, conflicting update, bad flags) rather than the cluster's.
func IsBadRequest(err error) bool { return errors.Is(err, errBadRequest) }

func badRequest(format string, args ...any) error {
	return inputError{fmt.Sprintf(format, args...)}
}

// notThere is what the request names and the cluster does not hold: not
// the request's fault, so not a bad request (exit 1, as kubectl's "not
// found").
type notThere struct{ msg string }

func (e notThere) Error() string { return e.msg }

func notFound(format string, args ...any) error { return notThere{fmt.Sprintf(format, args...)} }

// IsNotThere reports whether err is something the request names that the
// cluster does not hold (a controller, an update in progress).
func IsNotThere(err error) bool {
	var n notThere
	return errors.As(err, &n)
}

// Step reads the two controllers, makes at most one write, and says what to
// do next. It keeps nothing between calls: every decision comes from the
// objects, so a step after a crash continues where the last write left off.
func (u *Updater) Step(ctx context.Context, req Request, s *Session) (Outcome, error) {
	var next string
	o, err := u.step(ctx, req.WithDefaults(), s, &next)
	o.Next = next
	return o, err
}

func (u *Updater) step(ctx context.Context, req Request, s *Session, nextOut *string) (Outcome, error) {
	old, err := u.get(ctx, req.Old)
	if err != nil {
		return Outcome{}, err
	}
	nextName, err := u.nextName(ctx, req, old)
	if err != nil {
		return Outcome{}, err
	}
	*nextOut = nextName
	var next *corev1.ReplicationController
	if nextName != "" {
		if next, err = u.get(ctx, nextName); err != nil {
			return Outcome{}, err
		}
	}
	if old != nil && next == nil && old.Annotations[RenamingAnnotation] != "" {
		// The next controller is gone and its pods are orphans: the copy
		// takes them over at the next controller's size.
		if req.Rollback {
			return Outcome{}, errRenaming(old.Name, nextName)
		}
		o, err := u.write(PhaseRename, 0, u.update(ctx, renamed(old)))
		o.Lines = wrote(err, fmt.Sprintf("replicationcontroller/%s rolling updated\n", old.Name))
		o.Done = err == nil
		return o, err
	}
	switch {
	case old == nil && next == nil:
		return Outcome{}, notFound("replicationcontroller %q not found in namespace %q", req.Old, u.Namespace)
	case old == nil && req.Rollback:
		return Outcome{}, errRenaming(req.Old, next.Name)
	case old == nil:
		return u.withoutOld(ctx, req, next)
	case next == nil:
		return u.withoutNext(ctx, req, old, nextName, s)
	}
	if _, ok := old.Annotations[RenamingAnnotation]; ok && next.Annotations[RenameAnnotation] == old.Name {
		// The old name already holds a copy of next, not yet in charge:
		// next goes, leaving its pods to the copy.
		if req.Rollback {
			return Outcome{}, errRenaming(req.Old, next.Name)
		}
		if next.DeletionTimestamp != nil {
			// The garbage collector is orphaning its pods; the copy may
			// take them over once next is gone.
			return Outcome{Phase: PhaseRename, Wait: time.Duration(req.PollInterval)}, nil
		}
		return u.write(PhaseRename, 0, u.deleteRC(ctx, next, metav1.DeletePropagationOrphan))
	}
	if req.Rollback || old.Annotations[SourceAnnotation] == sourceID(next) {
		return u.rollback(ctx, req, old, next, s)
	}
	return u.forward(ctx, req, old, next, s)
}

// errRenaming refuses an abort once the old controller is gone: every pod
// already runs the new version, so there is nothing to go back to but a new
// update.
func errRenaming(old, next string) error {
	if next == "" {
		next = "the next controller"
	} else {
		next = strconv.Quote(next)
	}
	return badRequest("cannot roll back replicationcontroller %q: the update has finished scaling and %s is being renamed to it, so there is no old controller left to restore; let the update finish, then start a new rolling update with the old image", old, next)
}

// nextName finds the next controller's name: as given, as recorded on the old
// controller, as recorded by a rename in progress, or derived from the image.
func (u *Updater) nextName(ctx context.Context, req Request, old *corev1.ReplicationController) (string, error) {
	if req.Next != "" {
		return req.Next, nil
	}
	if old != nil && old.Annotations[NextAnnotation] != "" {
		return old.Annotations[NextAnnotation], nil
	}
	rcs, err := u.Client.CoreV1().ReplicationControllers(u.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", fmt.Errorf("list replicationcontrollers in %q to find a rename in progress: %w", u.Namespace, err)
	}
	for i := range rcs.Items {
		if rcs.Items[i].Annotations[RenameAnnotation] == req.Old {
			return rcs.Items[i].Name, nil
		}
	}
	if old == nil || req.Image == "" {
		return "", nil
	}
	next, err := nextController(old, req)
	if err != nil {
		return "", err
	}
	return next.Name, nil
}

// withoutOld: the old name is free. Either the rename is half done, or an
// update to a named NEXT has deleted the old controller and only the
// clean-up of NEXT is left.
func (u *Updater) withoutOld(ctx context.Context, req Request, next *corev1.ReplicationController) (Outcome, error) {
	if next.Annotations[RenameAnnotation] == req.Old {
		copyRC := renamedCopy(next, req.Old)
		_, err := u.Client.CoreV1().ReplicationControllers(u.Namespace).Create(ctx, copyRC, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return Outcome{}, fmt.Errorf("recreate replicationcontroller %q from %q: %w", req.Old, next.Name, err)
		}
		o, err := u.write(PhaseRename, 0, nil)
		o.Lines = wrote(err, fmt.Sprintf("Renaming %s to %s\n", next.Name, req.Old))
		return o, err
	}
	if hasRolloutAnnotations(next) {
		o, err := u.write(PhaseFinish, 0, u.strip(ctx, next))
		o.Lines = wrote(err, fmt.Sprintf("replicationcontroller/%s rolling updated to %q\n", req.Old, next.Name))
		o.Done = err == nil
		return o, err
	}
	return Outcome{Phase: PhaseDone, Done: true}, nil
}

// noUpdateToAbort is --rollback with no update in progress from old (to
// next, when it is named).
func noUpdateToAbort(old, next string) error {
	what := fmt.Sprintf("there is no rolling update in progress for replicationcontroller %q", old)
	if next != "" {
		what = fmt.Sprintf("there is no rolling update in progress from replicationcontroller %q to %q (it does not exist)", old, next)
	}
	return notFound("%s, so there is nothing to roll back: to go back to an older image, start a new rolling update with the old image (rolling-update %s --image=IMAGE)", what, old)
}

// withoutNext: no next controller. Either a rollback has deleted it and only
// the clean-up is left, the update already finished, or it starts now.
func (u *Updater) withoutNext(ctx context.Context, req Request, old *corev1.ReplicationController, nextName string, s *Session) (Outcome, error) {
	if strings.HasPrefix(old.Annotations[SourceAnnotation], nextName+":") && nextName != "" {
		o, err := u.write(PhaseFinish, 0, u.strip(ctx, old))
		o.Lines = wrote(err, fmt.Sprintf("replicationcontroller/%s rolling updated\n", old.Name))
		o.Done = err == nil
		return o, err
	}
	if req.Rollback {
		if req.Next == "" && old.Annotations[NextAnnotation] == "" {
			nextName = "" // derived from --image, not one the operator knows of
		}
		return Outcome{}, noUpdateToAbort(old.Name, nextName)
	}
	if req.Image == "" || nextName == "" {
		return Outcome{}, badRequest("replicationcontroller %q has no update in progress; give --image to start one", old.Name)
	}
	if finishedCopy(old, req) {
		return Outcome{Phase: PhaseDone, Done: true}, nil
	}
	return u.prepare(ctx, req, old, s)
}

// finishedCopy reports whether old is already the result of this update: the
// next controller renamed back, running the requested image.
func finishedCopy(old *corev1.ReplicationController, req Request) bool {
	v := old.Spec.Selector[req.DeploymentKey]
	if v == "" || strings.HasSuffix(v, "-orig") || hasRolloutAnnotations(old) {
		return false
	}
	c, err := container(&old.Spec.Template.Spec, req.Container)
	return err == nil && c.Image == req.Image
}

// write wraps a step that made one write (err == nil) or failed.
// wrote is the line that reports a write, when the write was made: one
// refused (a conflict with the replication manager's status write, which Run
// retries) is not reported, so that the retry does not print it twice.
func wrote(err error, line string) []string {
	if err != nil {
		return nil
	}
	return []string{line}
}

func (u *Updater) write(p Phase, wait time.Duration, err error) (Outcome, error) {
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Phase: p, Wrote: true, Wait: wait}, nil
}

func (u *Updater) get(ctx context.Context, name string) (*corev1.ReplicationController, error) {
	rc, err := u.Client.CoreV1().ReplicationControllers(u.Namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read replicationcontroller %q in %q: %w", name, u.Namespace, err)
	}
	return rc, nil
}

func (u *Updater) deleteRC(ctx context.Context, rc *corev1.ReplicationController, policy metav1.DeletionPropagation) error {
	err := u.Client.CoreV1().ReplicationControllers(u.Namespace).Delete(ctx, rc.Name, metav1.DeleteOptions{
		PropagationPolicy: &policy,
		Preconditions:     &metav1.Preconditions{UID: &rc.UID},
	})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete replicationcontroller %q: %w", rc.Name, err)
	}
	return nil
}

func (u *Updater) update(ctx context.Context, rc *corev1.ReplicationController) error {
	if _, err := u.Client.CoreV1().ReplicationControllers(u.Namespace).Update(ctx, rc, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update replicationcontroller %q: %w", rc.Name, err)
	}
	return nil
}

// strip removes every rollout annotation from rc: the controller that remains.
func (u *Updater) strip(ctx context.Context, rc *corev1.ReplicationController) error {
	rc = rc.DeepCopy()
	for _, a := range rolloutAnnotations {
		delete(rc.Annotations, a)
	}
	return u.update(ctx, rc)
}

func hasRolloutAnnotations(rc *corev1.ReplicationController) bool {
	for _, a := range rolloutAnnotations {
		if _, ok := rc.Annotations[a]; ok {
			return true
		}
	}
	return false
}

func sourceID(rc *corev1.ReplicationController) string { return rc.Name + ":" + string(rc.UID) }

func size(rc *corev1.ReplicationController) int32 {
	if rc.Spec.Replicas == nil {
		return 1
	}
	return *rc.Spec.Replicas
}

func annotationInt(rc *corev1.ReplicationController, key string) (int32, bool) {
	return model.RCAnnotationInt(rc, key)
}
