package watch

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// addWorkloads watches StatefulSets and DaemonSets, and the
// ControllerRevisions that are their history, after them: a batch lists
// owners before what they own.
func (b *Bridge) addWorkloads(namespaced informers.SharedInformerFactory, ns string) {
	b.add("StatefulSet", func(s *source) cache.SharedIndexInformer {
		return observedInformer(namespaced, s, &appsv1.StatefulSet{}, func(c kubernetes.Interface) calls[*appsv1.StatefulSetList] { return c.AppsV1().StatefulSets(ns) })
	})
	b.add("DaemonSet", func(s *source) cache.SharedIndexInformer {
		return observedInformer(namespaced, s, &appsv1.DaemonSet{}, func(c kubernetes.Interface) calls[*appsv1.DaemonSetList] { return c.AppsV1().DaemonSets(ns) })
	})
	b.add("ControllerRevision", func(s *source) cache.SharedIndexInformer {
		return observedInformer(namespaced, s, &appsv1.ControllerRevision{}, func(c kubernetes.Interface) calls[*appsv1.ControllerRevisionList] {
			return c.AppsV1().ControllerRevisions(ns)
		})
	})
}
