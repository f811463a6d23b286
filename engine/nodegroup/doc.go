// Package nodegroup simulates kops-style instance groups the way the cloud's
// autoscaling groups behave: each group keeps Size nodes, creating the first
// ones at start and launching a replacement with the group's current spec
// whenever one of its nodes is terminated (its Node object deleted). A new
// node boots NotReady and tainted node.kubernetes.io/not-ready:NoSchedule,
// and turns Ready, untainted, once its group's BootTime has passed. The
// embedded cluster registers the groups' first nodes Ready before any
// workload (Register), as the nodes of a cluster one deploys to; the
// controller creates them itself only when a group has none.
//
// The controller writes nodes as a kubelet registering with a real API server
// does (Create, then UpdateStatus), so it also runs hollow nodes against one.
package nodegroup
