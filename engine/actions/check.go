package actions

import (
	"fmt"
	"math"
)

// MaxReplicas is the most replicas an action accepts: what the API accepts,
// spec.replicas being a 32-bit integer. Kubernetes sets no lower limit (its
// scalability envelope, 150,000 pods in a cluster, is not a validation rule),
// and every action that changes a cluster asks first, its plan showing the
// count, so a slip of the finger is caught there rather than by a cap here.
const MaxReplicas = math.MaxInt32

// CheckReplicas refuses a replica count below 0 or above MaxReplicas.
func CheckReplicas(replicas int64) error {
	switch {
	case replicas < 0:
		return fmt.Errorf("replicas must be 0 or more, not %d", replicas)
	case replicas > MaxReplicas:
		return fmt.Errorf("%d replicas is more than the API accepts (spec.replicas is at most %d)", replicas, MaxReplicas)
	}
	return nil
}
