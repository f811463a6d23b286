package rollingupdate

import corev1 "k8s.io/api/core/v1"

// The tests that run the embedded cluster are in package rollingupdate_test:
// the embedded cluster registers Controller, so they cannot be inside the
// package. These let them read the objects as Step does.

// Size is the controller's spec.replicas (1 when unset).
func Size(rc *corev1.ReplicationController) int32 { return size(rc) }

// HasRolloutAnnotations reports whether any of the update's annotations is
// still on rc.
func HasRolloutAnnotations(rc *corev1.ReplicationController) bool { return hasRolloutAnnotations(rc) }
