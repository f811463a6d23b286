package control

import (
	"context"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/clock"
)

// APIRecorder writes events through the API, as client-go's event broadcaster
// does, but synchronously and with names that depend only on the object and a
// counter, so that a simulation run is reproducible.
type APIRecorder struct {
	Client    kubernetes.Interface
	Clock     clock.PassiveClock
	Component string

	mu sync.Mutex
	n  uint64
}

// Eventf implements Recorder. Failures to record are ignored, as upstream does.
func (r *APIRecorder) Eventf(obj runtime.Object, eventType, reason, messageFmt string, args ...any) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	kind := obj.GetObjectKind().GroupVersionKind()
	if kind.Kind == "" {
		if gvks, _, err := scheme.Scheme.ObjectKinds(obj); err == nil && len(gvks) > 0 {
			kind = gvks[0]
		}
	}
	r.mu.Lock()
	r.n++
	n := r.n
	r.mu.Unlock()
	now := metav1.NewTime(r.Clock.Now())
	ns := m.GetNamespace()
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	ev := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name:      fmt.Sprintf("%s.%x%04x", m.GetName(), now.UnixNano(), n&0xffff),
			Namespace: ns,
		},
		InvolvedObject: corev1.ObjectReference{
			Kind:            kind.Kind,
			APIVersion:      kind.GroupVersion().String(),
			Namespace:       m.GetNamespace(),
			Name:            m.GetName(),
			UID:             m.GetUID(),
			ResourceVersion: m.GetResourceVersion(),
		},
		Reason:         reason,
		Message:        fmt.Sprintf(messageFmt, args...),
		Type:           eventType,
		Source:         corev1.EventSource{Component: r.Component},
		FirstTimestamp: now,
		LastTimestamp:  now,
		Count:          1,
	}
	_, _ = r.Client.CoreV1().Events(ns).Create(context.Background(), ev, metav1.CreateOptions{})
}
