package actions

import (
	"fmt"
)

// MaxReplicas is the most replicas an action accepts. The API allows up to
// 2^31-1, but a number this large typed in a dialog is a slip of the finger,
// and a deployment scaled to it would flood the cluster with pods.
const MaxReplicas = 100000

// CheckReplicas refuses a replica count below 0 or above MaxReplicas.
func CheckReplicas(replicas int64) error {
	switch {
	case replicas < 0:
		return fmt.Errorf("replicas must be 0 or more, not %d", replicas)
	case replicas > MaxReplicas:
		return fmt.Errorf("%d replicas is more than rollscope will set (%d) — scale with kubectl if you mean it", replicas, MaxReplicas)
	}
	return nil
}
