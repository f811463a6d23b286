package kind

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Each kind's Copy and TakeStatus: how a forecast's rehearsal seeds a copy
// of a workload — a new object with the same spec, created, then given the
// status the controller last wrote, as the copy's controller should find
// it.

func (w deployment) Copy(m metav1.ObjectMeta) Workload {
	return deployment{&appsv1.Deployment{ObjectMeta: m, Spec: *w.Spec.DeepCopy()}}
}

func (w deployment) TakeStatus(from Workload) {
	if o, ok := from.Object().(*appsv1.Deployment); ok {
		w.Status = *o.Status.DeepCopy()
		w.Status.ObservedGeneration = w.Generation
	}
}

func (w replicationController) Copy(m metav1.ObjectMeta) Workload {
	return replicationController{&corev1.ReplicationController{ObjectMeta: m, Spec: *w.Spec.DeepCopy()}}
}

func (w replicationController) TakeStatus(from Workload) {
	if o, ok := from.Object().(*corev1.ReplicationController); ok {
		w.Status = *o.Status.DeepCopy()
		w.Status.ObservedGeneration = w.Generation
	}
}

// Copy makes no PersistentVolumeClaims: the embedded StatefulSet controller
// does not either, and no pod of a rehearsal mounts one.
func (w statefulSet) Copy(m metav1.ObjectMeta) Workload {
	cp := &appsv1.StatefulSet{ObjectMeta: m, Spec: *w.Spec.DeepCopy()}
	cp.Spec.VolumeClaimTemplates = nil
	return statefulSet{cp}
}

func (w statefulSet) TakeStatus(from Workload) {
	if o, ok := from.Object().(*appsv1.StatefulSet); ok {
		w.Status = *o.Status.DeepCopy()
		w.Status.ObservedGeneration = w.Generation
	}
}

func (w daemonSet) Copy(m metav1.ObjectMeta) Workload {
	return daemonSet{&appsv1.DaemonSet{ObjectMeta: m, Spec: *w.Spec.DeepCopy()}}
}

func (w daemonSet) TakeStatus(from Workload) {
	if o, ok := from.Object().(*appsv1.DaemonSet); ok {
		w.Status = *o.Status.DeepCopy()
		w.Status.ObservedGeneration = w.Generation
	}
}
