package watch

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// addWorkloads watches StatefulSets and DaemonSets, and the
// ControllerRevisions that are their history, after them: a batch lists
// owners before what they own.
func (b *Bridge) addWorkloads(client kubernetes.Interface, ns string) {
	b.add("StatefulSet", &appsv1.StatefulSet{}, trim, func(s *source) cache.ListerWatcher {
		return observed[*appsv1.StatefulSetList](s, client.AppsV1().StatefulSets(ns), client)
	})
	b.add("DaemonSet", &appsv1.DaemonSet{}, trim, func(s *source) cache.ListerWatcher {
		return observed[*appsv1.DaemonSetList](s, client.AppsV1().DaemonSets(ns), client)
	})
	b.add("ControllerRevision", &appsv1.ControllerRevision{}, trim, func(s *source) cache.ListerWatcher {
		return observed[*appsv1.ControllerRevisionList](s, client.AppsV1().ControllerRevisions(ns), client)
	})
}
