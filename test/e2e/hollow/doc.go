// Package hollow runs rollscope's own simulated node groups and kubelets —
// the controllers of engine/nodegroup and engine/kubelet — against a real API
// server, as "hollow nodes": Node objects with capacity and a Ready
// condition, whose pods, once bound by the real scheduler, are moved through
// image pull, start and readiness the way the embedded engine moves them.
//
// Runner is the live counterpart of the embedded engine's simulation runner:
// it feeds the controllers' listers from client-go shared informers and drives
// each controller from a rate-limited work queue on the wall clock.
package hollow
