package rollingupdate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Clock is what Run waits on: real time against a live cluster, or an
// embedded cluster's virtual time, which a rehearsal advances by running the
// cluster for the wait.
type Clock interface {
	Now() time.Time
	// Wait returns after d, or with ctx's error when ctx ends first.
	Wait(ctx context.Context, d time.Duration) error
}

// RealClock is the wall clock.
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// Wait sleeps for d unless ctx ends first.
func (RealClock) Wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ErrNoProgress is returned by Run when nothing changed for the timeout.
var ErrNoProgress = errors.New("timed out waiting for any update progress to be made")

// Run drives an update to the end on clk, printing kubectl's progress lines
// to out, as the headless command does against a live cluster. A timeout of
// zero waits for ever. Stopping it (ctx, an error) leaves the update where it
// was: running it again continues.
func Run(ctx context.Context, u *Updater, req Request, timeout time.Duration, clk Clock, out io.Writer) error {
	s := &Session{}
	lastProgress := clk.Now()
	for {
		o, err := u.Step(ctx, req, s)
		for _, l := range o.Lines {
			fmt.Fprint(out, l)
		}
		if apierrors.IsConflict(err) && ctx.Err() == nil {
			// The replication controller wrote the object between the
			// step's read and its write: read again and decide again.
			continue
		}
		if err != nil {
			return err
		}
		if o.Done {
			return nil
		}
		if o.Wrote {
			lastProgress = clk.Now()
		} else if timeout > 0 && clk.Now().Sub(lastProgress) > timeout {
			return fmt.Errorf("rolling update of replicationcontroller %q: %w (run the same command again to continue, or abort with --rollback)", req.Old, ErrNoProgress)
		}
		if o.Wait <= 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("rolling update of replicationcontroller %q stopped: %w (run the same command again to continue)", req.Old, err)
			}
			continue
		}
		if err := clk.Wait(ctx, o.Wait); err != nil {
			return fmt.Errorf("rolling update of replicationcontroller %q stopped: %w (run the same command again to continue)", req.Old, err)
		}
	}
}

// DryRun describes what the update would do, writing nothing.
func DryRun(ctx context.Context, u *Updater, req Request, out io.Writer) error {
	req = req.WithDefaults()
	old, err := u.get(ctx, req.Old)
	if err != nil {
		return err
	}
	if old == nil {
		return notFound("replicationcontroller %q not found in namespace %q", req.Old, u.Namespace)
	}
	if req.Rollback {
		name := req.Next
		if name == "" {
			name = old.Annotations[NextAnnotation]
		}
		fmt.Fprintf(out, "Rolling back replicationcontroller %q: scale it back to %s replicas and delete %q (dry run)\n", old.Name, old.Annotations[OriginalAnnotation], name)
		return nil
	}
	if req.Image == "" {
		return badRequest("give --image for a dry run of an update of %q", old.Name)
	}
	next, err := nextController(old, req)
	if err != nil {
		return err
	}
	oc, _ := container(&old.Spec.Template.Spec, req.Container)
	fmt.Fprintf(out, "Rolling from:\n  replicationcontroller/%s  image %s  replicas %d  selector %s\n", old.Name, oc.Image, size(old), metav1.FormatLabelSelector(&metav1.LabelSelector{MatchLabels: old.Spec.Selector}))
	fmt.Fprintf(out, "To:\n  replicationcontroller/%s  image %s  replicas %d  selector %s\n", next.Name, req.Image, size(old), metav1.FormatLabelSelector(&metav1.LabelSelector{MatchLabels: next.Spec.Selector}))
	if req.Next == "" {
		fmt.Fprintf(out, "Then %s is renamed to %s. (dry run)\n", next.Name, old.Name)
	} else {
		fmt.Fprintf(out, "Then %s is deleted. (dry run)\n", old.Name)
	}
	return nil
}
