// Package memapi is rollscope's embedded Kubernetes API server: a real
// kubernetes.Interface (client-go's typed clients) over an in-memory store,
// so that the embedded cluster runs the same informers, listers, actions and
// drains as a live one.
//
// It follows the real API server where rollscope's users can see the
// difference: resourceVersions and optimistic concurrency, generation,
// generateName, the status, scale, binding and eviction subresources, the
// three patch types, graceful pod deletion, owner-reference cascades,
// upstream defaulting, the Priority and DefaultTolerationSeconds admission
// defaults, validation messages, and watches that replay history, honour
// selectors and never drop an event or block a writer.
//
// client-go's fake clientset is used only as the typed-client plumbing: every
// request is answered by this package's reactors, never by the fake's
// object tracker.
//
// Where it knowingly differs from a real server:
//   - server-side apply is refused (415); lists are never paginated;
//   - foreground deletion removes the owner right after deleting its
//     dependents, without waiting for terminating pods; deleting a namespace
//     removes its contents at once; the garbage collector does not delete
//     objects created with owner references to objects that do not exist;
//   - Services get no cluster IP and pods no service account token;
//   - environment variable names must match [-._a-zA-Z][-._a-zA-Z0-9]*, the
//     classic rule; since 1.34 a real server accepts any printable ASCII
//     name without '=';
//   - client-go's fake panics, before this package is reached, on a label or
//     field selector that does not parse, and its Bind sends the Binding's
//     namespace rather than the client's (so a Binding must name it).
package memapi
