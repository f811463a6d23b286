// Package livesim tests `rollscope simulate --kubeconfig` end to end: the
// real binary plays a scenario on the test control plane with hollow nodes,
// its trace ends with every rollout finished and its last lines are the
// API's final objects, the namespace and hollow nodes are gone afterwards —
// also after Ctrl-C, for a view-only user (who is refused before anything
// is made), and across an API server restart in the middle of the rollout.
package livesim
