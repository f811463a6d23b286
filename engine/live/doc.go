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
package live
