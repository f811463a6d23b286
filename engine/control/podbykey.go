package control

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// PodByKey reads the pod of a queue key ("namespace/name") from the cache;
// found is false when it is gone. The pod indexer is keyed by the same
// string, so the kubelet and the scheduler, which read a pod on every sync,
// read it without splitting the key, building a namespaced lister and
// joining the key again (three allocations a sync). Without PodIndex it asks
// the pod lister.
func (l Listers) PodByKey(key string) (pod *corev1.Pod, found bool, err error) {
	if strings.Count(key, "/") != 1 {
		return nil, false, fmt.Errorf("%q is not a pod key (namespace/name)", key)
	}
	if l.PodIndex == nil {
		ns, name, _ := strings.Cut(key, "/")
		pod, err := l.Pods.Pods(ns).Get(name)
		if apierrors.IsNotFound(err) {
			return nil, false, nil
		}
		return pod, err == nil, err
	}
	obj, found, err := l.PodIndex.GetByKey(key)
	if err != nil || !found {
		return nil, false, err
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, false, fmt.Errorf("the pod cache holds a %T under %q", obj, key)
	}
	return pod, true, nil
}
