// Package memapi is rollscope's embedded Kubernetes API server: a real
// kubernetes.Interface (client-go's typed clients) over an in-memory store,
// so that the embedded cluster runs the same informers, listers, actions and
// drains as a live one.
//
// It follows the real API server where rollscope's users can see the
// difference: resourceVersions and optimistic concurrency, generation,
// generateName, the status, scale, binding and eviction subresources, the
// three patch types, graceful pod deletion, owner-reference cascades,
// upstream defaulting and validation messages, and watches that replay
// history, honour selectors and never drop an event or block a writer.
//
// client-go's fake clientset is used only as the typed-client plumbing: every
// request is answered by this package's reactors, never by the fake's
// object tracker.
package memapi
