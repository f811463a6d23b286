// Package why checks "why is it stuck" on a real control plane with hollow
// nodes: a hollow pod's log streamed through the real API server's pods/log
// (the hollow kubelet serves /containerLogs over TLS), the console's logs
// view on it, the blocker line for an unschedulable rollout from what the
// real scheduler wrote, and a user without pods/log finding l disabled with
// the reason.
package why
