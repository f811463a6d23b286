// Package perform is the one place rollscope sends what its keys, dialogs
// and scenario scripts ask for. Every action.Request — on a deployment,
// nodes, a node group's roll or a ReplicationController — goes through one
// dispatch to engine/actions, engine/drain, engine/noderoll or
// engine/rollingupdate, which send what kubectl (or kops) would. Cluster
// also answers what the console asks before sending: the input checks, the
// forecast (the same dispatch rehearsed on a copy), a deployment's
// containers, the undo diff, the drain preview and the roll and RC update
// plans; its methods are the console's Actions. Scripts call Send.
package perform
