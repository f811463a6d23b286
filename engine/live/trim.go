package live

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"

	"rollscope/model"
)

// The console's controllers (drain, node roll, RC rolling update, canary)
// watch every pod of every namespace beside the console's own watch, so
// what their caches keep of each object is most of what they cost. Like
// kube-controller-manager, they drop managed fields from everything; a pod
// is also cut down to what the drain and the canary read of it, and a
// DaemonSet to its name. Nodes, Deployments, ReplicaSets and RCs keep
// their spec and status: the controllers write nodes, RCs and Deployments
// back with Update from the cache, and a canary compares its ReplicaSets'
// templates. (An Update without managed fields leaves the server's as
// they were.)

// canaryWarnings is the only kind of event the console's controllers read
// (the canary's gates: model.CanaryWarningOf); the API server filters the
// rest — most of a rollout's events are Normal ones about pods.
var canaryWarnings = fields.Set{"type": corev1.EventTypeWarning, "involvedObject.kind": "Pod"}.AsSelector().String()

// trimForControllers is the console runner's informer transform. It
// returns a new object when it cuts anything and never changes its input.
// The same transform may see an object twice (and tombstones): it keeps
// what it was given when there is nothing to cut.
func trimForControllers(obj any) (any, error) {
	switch o := obj.(type) {
	case *corev1.Pod:
		return trimPod(o), nil
	case *appsv1.DaemonSet:
		return &appsv1.DaemonSet{ObjectMeta: trimMeta(o.ObjectMeta)}, nil
	case metav1.Object:
		if len(o.GetManagedFields()) > 0 {
			return withoutManagedFields(obj), nil
		}
	}
	return obj, nil
}

// withoutManagedFields copies obj's top level and drops the managed fields
// from the copy. Cutting in place would be cheaper, but the object handed
// to the transform is not always the informer's alone: a client may keep
// it too (the fake clientset's tracker hands its watchers the object it
// serves Gets from) and read it while the cut is written. The copy shares
// everything else with obj, which no one changes (caches are read-only).
// An unstructured object is one map underneath, so it is copied whole.
func withoutManagedFields(obj any) any {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		c := u.DeepCopy()
		c.SetManagedFields(nil)
		return c
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return obj
	}
	c := reflect.New(v.Elem().Type())
	c.Elem().Set(v.Elem())
	out := c.Interface()
	out.(metav1.Object).SetManagedFields(nil)
	return out
}

// trimMeta keeps what names, selects and owns an object; no annotations.
func trimMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
		Generation: m.Generation, CreationTimestamp: m.CreationTimestamp,
		DeletionTimestamp: m.DeletionTimestamp, DeletionGracePeriodSeconds: m.DeletionGracePeriodSeconds,
		Labels: m.Labels, OwnerReferences: m.OwnerReferences,
	}
}

// trimPod keeps what the controllers read of a pod: its node and owner
// (their indexes), labels (PodDisruptionBudgets), the mirror-pod
// annotation, which volumes are emptyDirs, its phase and deletion (drain's
// filters), and its conditions and containers' restarts, back-offs and last
// exits (the canary's gates). Everything else — containers, images, env,
// most annotations, managed fields — is dropped.
func trimPod(p *corev1.Pod) *corev1.Pod {
	out := &corev1.Pod{ObjectMeta: trimMeta(p.ObjectMeta)}
	if v, ok := p.Annotations[model.MirrorPodAnnotation]; ok {
		out.Annotations = map[string]string{model.MirrorPodAnnotation: v}
	}
	out.Spec.NodeName = p.Spec.NodeName
	for _, v := range p.Spec.Volumes {
		if v.EmptyDir != nil {
			out.Spec.Volumes = append(out.Spec.Volumes, corev1.Volume{Name: v.Name,
				VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		}
	}
	out.Status.Phase = p.Status.Phase
	out.Status.Conditions = p.Status.Conditions
	out.Status.InitContainerStatuses = trimStatuses(p.Status.InitContainerStatuses)
	out.Status.ContainerStatuses = trimStatuses(p.Status.ContainerStatuses)
	return out
}

func trimStatuses(in []corev1.ContainerStatus) []corev1.ContainerStatus {
	if len(in) == 0 {
		return nil
	}
	out := make([]corev1.ContainerStatus, len(in))
	for i, cs := range in {
		out[i] = corev1.ContainerStatus{Name: cs.Name, Ready: cs.Ready, RestartCount: cs.RestartCount}
		if w := cs.State.Waiting; w != nil {
			out[i].State.Waiting = &corev1.ContainerStateWaiting{Reason: w.Reason}
		}
		if t := cs.LastTerminationState.Terminated; t != nil {
			out[i].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{Reason: t.Reason, ExitCode: t.ExitCode}
		}
	}
	return out
}
