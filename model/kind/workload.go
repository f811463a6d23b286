package kind

import (
	"reflect"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/argo"
	"rollscope/model/manifest"
)

// Workload is what every layer asks of a workload object, whatever its
// kind. Of wraps an object in it; each kind answers in its own file
// (deployment.go, statefulset.go, …), reusing model's rules.
type Workload interface {
	metav1.Object
	// Kind is the object's workload kind.
	Kind() Kind
	// Template is the pod template the workload creates pods from (nil for
	// a ReplicationController without one).
	Template() *corev1.PodTemplateSpec
	// Selector selects the workload's pods (a ReplicationController's map,
	// as a label selector).
	Selector() *metav1.LabelSelector
	// Replicas is spec.replicas as the API defaults it (1 when unset); a
	// DaemonSet, which runs one pod per node, has none: 0, false.
	Replicas() (int32, bool)
	// Revisions are the revision the pods run and the one being rolled to,
	// as the controller reports them ("" where the kind has none).
	Revisions() (current, update string)
	// RolloutStatus is `kubectl rollout status` for one look at the
	// workload: its sentence, whether it is done, or kubectl's error.
	RolloutStatus() (message string, done bool, err error)
	// TraceLine is what the workload's trace line says.
	TraceLine() TraceLine
	// Settled reports whether the workload's rollout has finished, with
	// every pod it wants available, as far as its object tells.
	Settled() bool
	// MinReadySeconds is how long a ready pod waits before it counts as
	// available.
	MinReadySeconds() int32
	// OnDelete reports whether a new template reaches the pods only as
	// they are deleted, the workload replacing none of its own accord.
	OnDelete() bool
	// Surge is how many pods above what it runs now a new template may
	// bring up at once, as its controller resolves it: a Deployment's or
	// a canary's maxSurge (rounded up), a blue/green Rollout's preview
	// set, the nodes a DaemonSet's maxSurge lets run two pods; 0 where
	// old pods go before new ones come (Recreate, StatefulSets, OnDelete).
	Surge() int32
	// At is the workload as it would be running size pods: spec.replicas
	// size, or a DaemonSet scheduled on size nodes. It shares all else with
	// the workload, to be read, not written: what a rollout would bring up
	// at a size the workload is scaled to later (a scenario's scale).
	At(size int32) Workload
	// Figures are the progress figures the fleet compares to tell whether
	// the rollout moved.
	Figures() [4]int64
	// Object is the typed object.
	Object() any
	// Copy is a new object of the kind with meta m and the workload's spec,
	// as a rehearsal creates it (TakeStatus then gives it its status).
	Copy(m metav1.ObjectMeta) Workload
	// Check is what the API server would reject of the object, found
	// before it is sent: the first problem, or nil.
	Check() *manifest.Problem
}

// Of is the workload o is; false when o is not one (a pod, a node, a nil).
func Of(o any) (Workload, bool) {
	switch x := o.(type) {
	case *appsv1.Deployment:
		if x != nil {
			return deployment{x}, true
		}
	case *corev1.ReplicationController:
		if x != nil {
			return replicationController{x}, true
		}
	case *appsv1.StatefulSet:
		if x != nil {
			return statefulSet{x}, true
		}
	case *appsv1.DaemonSet:
		if x != nil {
			return daemonSet{x}, true
		}
	case *argo.Rollout:
		if x != nil {
			return rollout{x}, true
		}
	}
	return nil, false
}

// specReplicas is spec.replicas, which the API defaults to 1.
func specReplicas(r *int32) (int32, bool) {
	if r == nil {
		return 1, true
	}
	return *r, true
}

// TakeStatus gives to, a copy of from that the API has just created, the
// status from's controller last wrote, observed at to's own generation: a
// rehearsal's controller then finds the copy as the cluster's found the
// original. Every workload kind keeps its status in Status, with an
// ObservedGeneration (Argo's a string), so one reflective write serves them
// all.
func TakeStatus(to, from Workload) {
	dst, src := reflect.ValueOf(to.Object()).Elem(), reflect.ValueOf(from.Object()).Elem()
	if dst.Type() != src.Type() {
		return
	}
	status := dst.FieldByName("Status")
	status.Set(reflect.ValueOf(deepCopy(src.FieldByName("Status"))))
	observed := status.FieldByName("ObservedGeneration")
	if observed.Kind() == reflect.String {
		observed.SetString(strconv.FormatInt(to.GetGeneration(), 10))
		return
	}
	observed.SetInt(to.GetGeneration())
}

// deepCopy is a status's own DeepCopy, which every API status type has.
func deepCopy(v reflect.Value) any {
	return v.Addr().MethodByName("DeepCopy").Call(nil)[0].Elem().Interface()
}
