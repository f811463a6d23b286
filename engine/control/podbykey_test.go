package control

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// PodByKey answers the same from the pod index as from the pod lister: the
// pod of a key, nothing for a pod that is gone, an error for a key that
// names no pod.
func TestPodByKeyReadsTheIndexAsTheLister(t *testing.T) {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, Indexers(Pods))
	web := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1"}}
	if err := idx.Add(web); err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]Listers{
		"index":  {Pods: corelisters.NewPodLister(idx), PodIndex: idx},
		"lister": {Pods: corelisters.NewPodLister(idx)},
	} {
		if p, found, err := l.PodByKey("shop/web-1"); err != nil || !found || p != web {
			t.Errorf("%s: shop/web-1 = %v, %v, %v; want the pod", name, p, found, err)
		}
		if p, found, err := l.PodByKey("shop/web-2"); err != nil || found || p != nil {
			t.Errorf("%s: shop/web-2 = %v, %v, %v; want not found", name, p, found, err)
		}
		if _, _, err := l.PodByKey("shop/web-1/x"); err == nil {
			t.Errorf("%s: shop/web-1/x names no pod, but no error", name)
		}
	}
}
