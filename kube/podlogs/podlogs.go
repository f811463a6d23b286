// Package podlogs reads containers' logs from a live cluster through the
// API server's pods/log subresource (client-go's pod log stream), which
// proxies to the kubelet of the pod's node. The console opens a stream when
// its logs view opens and closes it when the view closes.
package podlogs

import (
	"context"
	"io"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
)

// Source reads logs through Client.
type Source struct {
	Client kubernetes.Interface
}

// Open asks for r's log; with Follow the stream stays open until ctx ends
// or the container's run does. The API server's refusal (a pod with no
// node yet, a container waiting to start) is the error.
func (s Source) Open(ctx context.Context, r model.LogRequest) (io.ReadCloser, error) {
	opts := &corev1.PodLogOptions{Container: r.Container, Previous: r.Previous, Follow: r.Follow}
	if r.TailLines > 0 {
		opts.TailLines = &r.TailLines
	}
	return s.Client.CoreV1().Pods(r.Namespace).GetLogs(r.Pod, opts).Stream(ctx)
}
