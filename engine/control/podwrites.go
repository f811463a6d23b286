package control

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// CreatePod creates pod through pods and is the pod created. A client that
// takes the pod as it is (PodCreator, the embedded API's) is handed it: pod
// is then the stored object, to be read and never changed, and no copy
// answers the write.
func CreatePod(ctx context.Context, pods corev1client.PodInterface, pod *corev1.Pod) (*corev1.Pod, error) {
	if w, ok := pods.(PodCreator); ok {
		if _, err := w.CreateOwned(ctx, pod, metav1.CreateOptions{}); err != nil {
			return nil, err
		}
		return pod, nil
	}
	return pods.Create(ctx, pod, metav1.CreateOptions{})
}

// WritePodStatus writes status as pod's through pods, answered by nothing
// the caller reads. status is given up (PodStatusWriter stores it as it is);
// pod names the write and is not changed: a client without PodStatusWriter
// is sent a shallow copy of it, as it only reads what it sends and the
// shared metadata and spec are never modified.
func WritePodStatus(ctx context.Context, pods corev1client.PodInterface, pod *corev1.Pod, status *corev1.PodStatus) error {
	if w, ok := pods.(PodStatusWriter); ok {
		return w.WriteStatus(ctx, pod, status, metav1.UpdateOptions{})
	}
	updated := *pod
	updated.Status = *status
	_, err := pods.UpdateStatus(ctx, &updated, metav1.UpdateOptions{})
	return err
}
