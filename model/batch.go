package model

import appsv1 "k8s.io/api/apps/v1"

// HasDeployment reports whether the batch changes or deletes a Deployment:
// only such a batch can finish, fail, pause or resume a rollout, which the
// console shows at once however busy the watch is (ui/pace.go).
func (b Batch) HasDeployment() bool {
	for _, o := range b.Objects {
		if _, ok := o.(*appsv1.Deployment); ok {
			return true
		}
	}
	for _, r := range b.Deleted {
		if r.Kind == "Deployment" {
			return true
		}
	}
	return false
}
