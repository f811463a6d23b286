package model

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
)

// RolloutStatus is `kubectl rollout status` for one look at a deployment:
// the sentence kubectl prints, whether the rollout is done, or kubectl's
// error. revision > 0 insists the deployment is at that revision.
func RolloutStatus(d *appsv1.Deployment, revision int64) (message string, done bool, err error) {
	if revision > 0 {
		current, err := Revision(d)
		if err != nil {
			return "", false, fmt.Errorf("cannot get the revision of deployment %q: %w", d.Name, err)
		}
		if revision != current {
			return "", false, fmt.Errorf("desired revision (%d) is different from the running revision (%d)", revision, current)
		}
	}
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...\n", false, nil
	}
	s := d.Status
	if c := GetDeploymentCondition(s, appsv1.DeploymentProgressing); c != nil && c.Reason == ReasonProgressDeadlineExceeded {
		return "", false, fmt.Errorf("deployment %q exceeded its progress deadline", d.Name)
	}
	if d.Spec.Replicas != nil && s.UpdatedReplicas < *d.Spec.Replicas {
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...\n",
			d.Name, s.UpdatedReplicas, *d.Spec.Replicas), false, nil
	}
	if s.Replicas > s.UpdatedReplicas {
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...\n",
			d.Name, s.Replicas-s.UpdatedReplicas), false, nil
	}
	if s.AvailableReplicas < s.UpdatedReplicas {
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...\n",
			d.Name, s.AvailableReplicas, s.UpdatedReplicas), false, nil
	}
	return fmt.Sprintf("deployment %q successfully rolled out\n", d.Name), true, nil
}
