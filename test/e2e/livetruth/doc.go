// Package livetruth holds rollscope's console to what is true on a live
// cluster, through the real binary in tmux against the real control plane:
// an API server frozen with SIGSTOP (a banner within seconds, --plain saying
// so on stderr, a write sent meanwhile failing with its whole reason, all
// cleared once it answers); a user bound to the built-in view role (nothing
// but the console on an 80×24 screen, "you may not list nodes" in the Nodes
// pane); a paused deployment with a pending image change (in the header, and
// an undo that says it discards it); a terminating pod's STATUS word and
// counts; an env name kubectl refuses, refused with nothing sent; a deleted
// deployment and a namespace that does not exist; a drain confirmed with y
// after someone else cordoned the node, which sends nothing and says so;
// --plain ending with kubectl rollout status's exit codes (rolled out,
// progress deadline exceeded, not there).
package livetruth
