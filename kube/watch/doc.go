// Package watch keeps the console's picture of a cluster current: one
// client-go reflector per kind, on any kubernetes.Interface (a live cluster
// or the embedded one), feeds a Bridge that turns their events into
// cluster.Batch messages for the screen.
//
// The screen must never fall behind the cluster, however busy it is, so each
// reflector only stores the object and notes that it changed, on its own
// goroutine (feed.go), and one pump reads the current objects from the
// caches at most once an Interval (20 times a second by default) and sends
// them as one batch. An object that changed a hundred times between two pumps
// is sent once, in its latest state.
//
// The objects in a batch are the cached objects, trimmed of what the console
// never shows: they are shared and must be treated as read-only.
//
// # From the wire to a batch
//
//   - feed.go: each reflector stores an event in its kind's cache and marks
//     the key dirty on its own goroutine — no informer queue or handler
//     goroutines, which would wake a few hundred times a second during a
//     rollout only to mark a name.
//   - slim.go, trim.go: pods and events are cached slim, new objects with
//     only the fields model reads (TestSlimPodsShowTheSameAsFullPods fails
//     when model reads a field slimPod drops); workloads keep their
//     templates, which the console diffs, less managed fields and kubectl's
//     last-applied annotation.
//   - podwire.go, podclient.go, podevent.go: a live cluster's pods are read
//     slim straight from the API server's protobuf (TestWirePodIsSlimPod
//     holds it to slimPod field by field), through a REST client of their
//     own whose watch events' frames are read without the scheme, so the
//     console never decodes a whole pod. Pods come over HTTP/1.1, read by
//     the goroutine that decodes them; a frozen API server, which HTTP/2's
//     pings would have noticed on that connection, is noticed by the
//     /readyz probe.
//   - appswire.go: a live cluster's Deployments and ReplicaSets are read
//     from protobuf with their pod template decoded once for each distinct
//     template and shared by the versions that carry it — a rollout's
//     status writes decoded it again every time — and their managed fields
//     stepped over (TestWireAppsAreClientGos: client-go's objects, trimmed).
//   - firstlist.go: a live cluster is watched through a client without
//     --request-timeout, which client-go would apply to every watch, and
//     listed in pages of 2,000, each page bounded by it, so that no timeout
//     cuts off a large namespace's first list forever (a page that outlasts
//     it halves the kind's pages, down to 100); while it comes in, the
//     watch status says how many objects have come.
//   - eventwatches.go: with a pod detail's handle (PodEvents, the
//     console's), events come in two watches that leave pods' Normal events
//     out — most of a rollout's, which only the pod detail shows — and a
//     third for the pod described, while its detail is open.
//   - podscope.go: with a cluster-wide console's handle (PodNamespaces),
//     no pods until it asks, then a watch per namespace asked for, or one
//     of every namespace (and then the events about other objects, which
//     only a workload's timeline reads); the watch status names the
//     namespaces held, so that no row reads one it does not hold as having
//     no pods.
//   - pump.go: at most once an Interval, one cluster.Batch of the current
//     objects, the deletions and the watch status — failing watches, kinds
//     the user may not list, and, live, whether the API server answers its
//     /readyz probe (probe.go), which a frozen server's open watches never
//     tell. On a quiet cluster the pump rests until an object changes or a
//     watch's health moves (dirty.go), instead of waking every Interval.
package watch
