package rollingupdate

import (
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// Status is an update as the console shows it (see model.RCUpdateStatus).
type Status = model.RCUpdateStatus

// Describe finds the update controller name takes part in, from the
// annotations alone (as read from a cache). ok is false when there is none.
func Describe(rcs []*corev1.ReplicationController, name string) (Status, bool) {
	return model.DescribeRCUpdate(rcs, name)
}
