package watch

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// lastApplied is kubectl's copy of the whole manifest as last applied; it
// can be as large as the object itself and the console never shows it.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// trim is the informers' transform: it drops what the console never shows
// before an object is cached, so that memory stays flat on big clusters.
// It owns the object it is given (client-go decodes a fresh one per event).
//
// Deployment, ReplicaSet, ReplicationController, StatefulSet and DaemonSet
// templates (and ControllerRevisions, whose data is a template) are kept whole:
// the console diffs them between revisions, and an env change is a change a
// rollout is made of.
func trim(obj any) (any, error) {
	if m, ok := obj.(metav1.Object); ok {
		trimMeta(m)
	}
	switch o := obj.(type) {
	case *corev1.Pod:
		trimPodSpec(&o.Spec)
	case *corev1.Node:
		// The list of images on a node runs to hundreds of entries.
		o.Status.Images = nil
		o.Status.VolumesInUse = nil
		o.Status.VolumesAttached = nil
	case *appsv1.Deployment, *appsv1.ReplicaSet, *corev1.ReplicationController,
		*appsv1.StatefulSet, *appsv1.DaemonSet, *appsv1.ControllerRevision:
		// Templates are kept, and a ControllerRevision's data is its
		// template; see above.
	}
	return obj, nil
}

func trimMeta(m metav1.Object) {
	m.SetManagedFields(nil)
	delete(m.GetAnnotations(), lastApplied) // a no-op on a nil map
}

// trimPodSpec keeps what a pod row shows (node, images, container names and
// counts, restart policy) and drops configuration that only the kubelet reads.
func trimPodSpec(s *corev1.PodSpec) {
	s.Volumes = nil
	for _, cs := range [][]corev1.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			trimContainer(&cs[i])
		}
	}
	for i := range s.EphemeralContainers {
		trimContainer((*corev1.Container)(&s.EphemeralContainers[i].EphemeralContainerCommon))
	}
}

func trimContainer(c *corev1.Container) {
	c.Env = nil
	c.EnvFrom = nil
	c.VolumeMounts = nil
	c.VolumeDevices = nil
	c.LivenessProbe = nil
	c.ReadinessProbe = nil
	c.StartupProbe = nil
	c.Lifecycle = nil
}
