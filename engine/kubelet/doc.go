// Package kubelet simulates the kubelets of a cluster's nodes.
//
// For every pod bound to a node it serves, the simulated kubelet posts the
// pod status a real kubelet would post as the pod's images are pulled, its
// containers start, become ready, crash or fail to pull, and as the pod is
// deleted. The delays and failures come from ImageRules matched against each
// container's image. Time is the runner's clock and every delay is a requeue,
// so the same scenario and seed always give the same trace, and the same code
// drives hollow nodes against a real API server.
//
// The pod status is the source of truth: per-pod memory only carries what a
// real kubelet also keeps in memory (image pull back-off, readiness jitter), so
// a restarted kubelet carries on from what each pod's status says.
package kubelet
