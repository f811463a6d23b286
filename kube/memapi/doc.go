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
// client-go's fake typed clients of the groups it serves are used only as
// the typed-client plumbing: every request is answered by this package's
// reactors. Argo Rollouts' custom resources (argoproj.io/v1alpha1 Rollouts,
// AnalysisRuns, AnalysisTemplates) are served as their CRDs declare them,
// stored unstructured, through client-go's fake dynamic client as the same
// plumbing (Client().Dynamic(), custom.go). Every other group is answered
// 404, as an API server answers for a group it does not serve (clientset.go).
//
// # What it stores, and who may share it
//
// A stored object is never modified: a write stores a new one. So every
// committed write is published, in commit order, to subscribers (Subscribe;
// SubscribeChanges also hands each change the object it replaced, which is
// what an update's handler gets) and to watchers, with the stored object
// itself, and equal parts of stored objects may be one:
//
//   - a new pod whose containers, tolerations, volumes, labels, spec
//     defaults and owner references equal those of the last pod stored for
//     its controller holds that pod's (store.go's shareSpec), so a
//     ReplicaSet's pods hold one copy of its template;
//   - times are kept to the second, as a real server keeps them, and pods
//     started in the same second share one start time and running
//     container state (seconds.go);
//   - the embedded kubelet relies on it too: pods that write the very same
//     condition list share one, a node's pods one hostIPs list
//     (engine/kubelet).
//
// Events, kept for the whole run as upstream keeps them for an hour, are
// stored packed (model/eventpack) and read back as a new, equal Event by
// get, list and a watch's first list, and as what a change replaced for
// SubscribeChanges; watchers and subscribers get the committed Event
// itself. An event that does not pack exactly is stored as it is.
//
// A create is validated first without field paths and again with them only
// when something is wrong (validpaths.go): the checks are the same, and the
// messages are upstream's.
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
