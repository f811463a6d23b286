// Package live runs rollscope's own controllers against a real API server.
//
// Runner is the live counterpart of the embedded engine's simulation runner
// (engine/sim): it feeds the controllers' listers from client-go shared
// informers and drives each controller from a rate-limited work queue on the
// wall clock. The console uses it, through StartConsoleControllers, for the
// controllers that carry out operator requests kept on the objects (drains,
// node-group rolls, ReplicationController rolling updates, guided
// canaries) — on caches trimmed to what they read, watching pods only while
// a drain or a canary needs them — and
// Nodes uses it for hollow nodes: rollscope's node-group and kubelet
// simulators (engine/nodegroup, engine/kubelet) keeping Node objects with
// capacity and a Ready condition, whose pods, once bound by the real
// scheduler, move through image pull, start and readiness the way the
// embedded engine moves them.
//
// # What the console's controllers cost
//
// They watch beside the console's own watch, so their caches are kept
// small. With Scope.Trim (trim.go) managed fields are dropped from
// everything, a pod is cut to its node, owners, labels, the mirror-pod
// annotation, emptyDir volumes, phase, deletion, conditions and container
// restarts and exits, a DaemonSet to its name, and only Warning events
// about pods (the canary's gates) are listed at all. With Scope.PodsNeeded
// pods are watched only while a drain or a canary needs them, with
// Scope.ReplicaSetsNeeded ReplicaSets only while a canary or a node roll
// does, and with Scope.DeploymentsNeeded every Deployment only while a node
// roll does — the rest of the time only those labelled model.CanaryLabel
// (ondemand.go): a read with work pending starts the kind's informer
// and waits for its full list, and a minute after the last read with no
// work left it stops.
//
// A live `simulate` run also follows every workload kind and the
// ControllerRevisions (Scope.Workloads), so its trace has their lines, and ends only once the
// caches hold the API's latest version of every workload in its namespace
// (simplay.go's caughtUp).
package live
