package actions

import (
	"context"
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
	"rollscope/model/action"
)

// ErrPaused marks an undo refused because the deployment is paused, as
// kubectl refuses it; resuming first is the way out.
var ErrPaused = errors.New("paused deployments cannot be rolled back")

// OwnedReplicaSets lists the ReplicaSets that d controls, as kubectl finds
// them: selected by d's selector and owned by d's UID.
func OwnedReplicaSets(ctx context.Context, c kubernetes.Interface, d *appsv1.Deployment) ([]*appsv1.ReplicaSet, error) {
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("deployment %q has an invalid selector: %w", d.Name, err)
	}
	list, err := c.AppsV1().ReplicaSets(d.Namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, fmt.Errorf("cannot list the replica sets of deployment %q: %w", d.Name, err)
	}
	var owned []*appsv1.ReplicaSet
	for i := range list.Items {
		rs := &list.Items[i]
		if ref := metav1.GetControllerOf(rs); ref != nil && ref.UID == d.UID {
			owned = append(owned, rs)
		}
	}
	return owned, nil
}

// Undo rolls back to toRevision (0 = the previous revision), sending the JSON
// patch `kubectl rollout undo --to-revision` sends. It refuses, sending
// nothing, when the deployment is paused or already runs that template.
func Undo(ctx context.Context, c kubernetes.Interface, t Target, toRevision int64) (model.Rollback, error) {
	if toRevision < 0 {
		return model.Rollback{}, fmt.Errorf("cannot undo %s: revision %d does not exist — revisions are 1 or more (0 means the previous one)", t, toRevision)
	}
	var done model.Rollback
	err := write(func() error {
		d, err := get(ctx, c, t, "undo")
		if err != nil {
			return err
		}
		rss, err := OwnedReplicaSets(ctx, c, d)
		if err != nil {
			return err
		}
		rs, err := model.FindRevision(d, rss, toRevision)
		if err != nil {
			return fmt.Errorf("cannot undo %s: %w", t, err)
		}
		if d.Spec.Paused {
			return fmt.Errorf("cannot undo %s: it is paused — resume it first (r): %w", t, ErrPaused)
		}
		if model.EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			rev, _ := model.Revision(rs)
			return fmt.Errorf("%s is already at revision %d: %w", t, rev, action.ErrNothingToDo)
		}
		body, err := model.RollbackPatch(d, rs)
		if err != nil {
			return fmt.Errorf("cannot undo %s: %w", t, err)
		}
		to, _ := model.Revision(rs)
		done = model.Rollback{To: to, Now: model.MaxRevision(rss) + 1}
		return patch(ctx, c, t, "undo", types.JSONPatchType, body)
	})
	return done, err
}
