// Package noderoll rolls a node group the way `kops rolling-update` does,
// as a controller on the cluster's clock: validate the cluster, taint the
// nodes to replace kops.k8s.io/scheduled-for-update:PreferNoSchedule, surge
// by detaching nodes from the group (the group launches their replacements),
// take the first node alone when no node of the group is up to date yet,
// then per node cordon → drain (engine/drain) → terminate → wait the
// interval → validate before the next, maxSurge + maxUnavailable at a time.
//
// A roll is requested by writing annotations on the group's outdated nodes
// (Request): rollscope.dev/roll holds the roll's settings, rollscope.dev/roll-state
// its state (running, paused, waiting for the operator in step mode,
// stopped, failed), rollscope.dev/roll-node each node's step, and, while the
// cluster does not validate, rollscope.dev/roll-fails-at on one of the nodes
// when that fails the roll. Nothing else
// is needed to continue: a restarted rollscope reads them and goes on from
// where the roll was. The annotations live on the outdated nodes because a
// roll is exactly about them: when the last one is terminated, the roll is
// over and nothing is left behind.
package noderoll
