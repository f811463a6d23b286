package watch

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"rollscope/kube/objects"
)

// addWorkloads watches every workload kind, in the registry's order, and
// the ControllerRevisions that are the history of some of them, after them:
// a batch lists owners before what they own.
func (b *Bridge) addWorkloads(client kubernetes.Interface, ns string) {
	for _, row := range objects.Builtin() {
		e, _ := row.Kind.Entry()
		b.add(e.Name, row.New(), trim, func(s *source) cache.ListerWatcher {
			return observed[runtime.Object](s, row.ListWatch(client, ns), client)
		})
	}
	b.add("ControllerRevision", &appsv1.ControllerRevision{}, trim, func(s *source) cache.ListerWatcher {
		return observed[*appsv1.ControllerRevisionList](s, client.AppsV1().ControllerRevisions(ns), client)
	})
}
