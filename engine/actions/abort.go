package actions

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
	"rollscope/model/action"
)

// Annotations abort leaves on the deployment, so the timeline and the
// history can say what was aborted after rollscope restarts. The model
// reads them back; both use its names.
const (
	AbortedRevisionAnnotation = model.AbortedRevisionAnnotation
	AbortedToAnnotation       = model.AbortedToAnnotation
	AbortedAnnotation         = model.AbortedAnnotation
)

// Aborted says what an abort did: "revision 7 aborted, back on revision 6".
type Aborted = model.Abort

// Abort stops an in-flight rollout and returns the deployment to its stable
// ReplicaSet, the last one that was serving before the rollout began. It
// writes with the deployment's resourceVersion (an update, not a blind
// patch) so that it never overwrites a change it did not see, and clears
// spec.paused so that a paused canary is rolled back too. On a finished
// rollout, or one with nothing to go back to, it sends nothing and returns
// an error wrapping action.ErrNothingToDo.
func Abort(ctx context.Context, c kubernetes.Interface, t Target) (Aborted, error) {
	var done Aborted
	err := write(func() error {
		d, err := get(ctx, c, t, "abort")
		if err != nil {
			return err
		}
		rss, err := OwnedReplicaSets(ctx, c, d)
		if err != nil {
			return err
		}
		stable, aborted, err := StableReplicaSet(d, rss)
		if err != nil {
			return fmt.Errorf("cannot abort %s: %w", t, err)
		}
		back, _ := model.Revision(stable)
		done = Aborted{Revision: aborted, Back: back}
		u := d.DeepCopy()
		u.Spec.Template = model.TemplateFromReplicaSet(stable)
		u.Spec.Paused = false
		u.Annotations = model.DeploymentAnnotationsFrom(d, stable)
		if u.Annotations == nil {
			u.Annotations = map[string]string{}
		}
		done.Annotate(u.Annotations)
		if _, err := c.AppsV1().Deployments(t.Namespace).Update(ctx, u, metav1.UpdateOptions{}); err != nil {
			return describe("abort", t, err)
		}
		return nil
	})
	return done, err
}

// StableReplicaSet finds where an abort of d's rollout goes back to: among
// the ReplicaSets of earlier templates, the one with the most available
// pods (the one that was serving), the newest on a tie. It also returns
// the revision being rolled out. It refuses a finished rollout and a first
// rollout, which has no earlier template.
func StableReplicaSet(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (stable *appsv1.ReplicaSet, aborted int64, err error) {
	newRS := model.FindNewReplicaSet(d, rss)
	if newRS != nil {
		aborted, _ = model.Revision(newRS)
	} else {
		aborted = model.MaxRevision(rss) + 1
	}
	if rolloutFinished(d, newRS) {
		return nil, aborted, fmt.Errorf("the rollout of revision %d has finished — nothing to abort (undo goes back to an earlier revision): %w", aborted, action.ErrNothingToDo)
	}
	// model.PickAbortTarget is the one rule: the console's confirmation
	// names the revision by it too.
	_, old := model.FindOldReplicaSets(d, rss)
	var cands []model.AbortCandidate
	var withRev []*appsv1.ReplicaSet
	for _, rs := range old {
		rev, err := model.Revision(rs)
		if err != nil {
			continue
		}
		cands = append(cands, model.AbortCandidate{Revision: rev, Available: rs.Status.AvailableReplicas})
		withRev = append(withRev, rs)
	}
	if i := model.PickAbortTarget(cands); i >= 0 {
		stable = withRev[i]
	}
	if stable == nil {
		return nil, aborted, fmt.Errorf("revision %d is the first: there is no earlier revision to go back to — nothing to abort: %w", aborted, action.ErrNothingToDo)
	}
	return stable, aborted, nil
}

// rolloutFinished reports whether d runs newRS's template everywhere: the
// controller has seen the spec and every replica is updated and available,
// with no old pods left.
func rolloutFinished(d *appsv1.Deployment, newRS *appsv1.ReplicaSet) bool {
	if newRS == nil || d.Status.ObservedGeneration < d.Generation {
		return false
	}
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	s := d.Status
	return s.UpdatedReplicas == want && s.Replicas == want && s.AvailableReplicas == want
}
