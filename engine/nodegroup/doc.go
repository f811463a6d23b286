// Package nodegroup simulates kops-style instance groups the way the cloud's
// autoscaling groups behave: each group keeps Size nodes, creating the first
// ones at start and launching a replacement with the group's current spec
// whenever one of its nodes is terminated (its Node object deleted). A new
// node boots NotReady and tainted node.kubernetes.io/not-ready:NoSchedule,
// and turns Ready, untainted, once its group's BootTime has passed.
//
// The controller writes nodes as a kubelet registering with a real API server
// does (Create, then UpdateStatus), so it also runs hollow nodes against one.
package nodegroup
