package control

import "sync"

// Namespaced keeps the namespaced clients a controller writes through, one
// per namespace. A kubernetes.Interface builds a new one on every
// CoreV1().Pods(namespace) call (the embedded API's builds a fake client's
// wrappers, five allocations), and the kubelet, the scheduler and the event
// recorder ask once per pod, per write. A namespace's client is kept after
// the namespace is gone: there are few, and clients hold no state.
type Namespaced[T any] struct {
	of func(namespace string) T

	mu sync.Mutex
	in map[string]T
}

// NewNamespaced returns clients built by of, which is called once per
// namespace, on first use.
func NewNamespaced[T any](of func(namespace string) T) *Namespaced[T] {
	return &Namespaced[T]{of: of, in: map[string]T{}}
}

// In returns the client of namespace.
func (n *Namespaced[T]) In(namespace string) T {
	n.mu.Lock()
	defer n.mu.Unlock()
	c, ok := n.in[namespace]
	if !ok {
		c = n.of(namespace)
		n.in[namespace] = c
	}
	return c
}
