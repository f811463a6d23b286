package recording

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/kube/objects"
	"rollscope/model/argo"
)

// kinds are the objects the console watches (kube/watch), by the kind
// name its batches use: what a recording holds and a replay decodes.
var kinds = func() map[string]func() runtime.Object {
	m := map[string]func() runtime.Object{
		"Namespace":           func() runtime.Object { return &corev1.Namespace{} },
		"Node":                func() runtime.Object { return &corev1.Node{} },
		"ControllerRevision":  func() runtime.Object { return &appsv1.ControllerRevision{} },
		"ReplicaSet":          func() runtime.Object { return &appsv1.ReplicaSet{} },
		"Pod":                 func() runtime.Object { return &corev1.Pod{} },
		"PodDisruptionBudget": func() runtime.Object { return &policyv1.PodDisruptionBudget{} },
		"Event":               func() runtime.Object { return &corev1.Event{} },
		"AnalysisRun":         func() runtime.Object { return &argo.AnalysisRun{} },
	}
	for _, row := range objects.All() {
		e, _ := row.Kind.Entry()
		m[e.Name] = row.New
	}
	return m
}()

// kindOfType names each kind's Go type, for objects a batch carries
// without their TypeMeta (typed watches drop it).
var kindOfType = func() map[reflect.Type]string {
	m := map[reflect.Type]string{}
	for name, newObj := range kinds {
		m[reflect.TypeOf(newObj())] = name
	}
	return m
}()

// kindOf is the kind name of a watched object; false for anything else,
// which is never recorded (a Secret, whatever sent it).
func kindOf(obj runtime.Object) (string, bool) {
	k, ok := kindOfType[reflect.TypeOf(obj)]
	return k, ok
}
