package model

// LogRequest asks for one container's log, as `kubectl logs` does: the
// running container's, or the one before it (Previous), and then what it
// writes until it stops (Follow). The embedded cluster's kubelet simulator
// and a live cluster's pods/log subresource answer the same request.
type LogRequest struct {
	Namespace, Pod string
	// Container is "" for a pod's only container.
	Container string
	Previous  bool
	Follow    bool
	// TailLines, when above zero, starts that many lines from the end.
	TailLines int64
}
