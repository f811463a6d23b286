package model

// AbortCandidate is a ReplicaSet of an earlier template as an abort weighs
// it: its revision and how many of its pods are available.
type AbortCandidate struct {
	Revision  int64
	Available int32
}

// PickAbortTarget is where an abort goes back to: among the ReplicaSets of
// earlier templates, the one with the most available pods — the one that was
// serving before the rollout began — and the newest on a tie. It returns the
// index of that candidate, or -1 when there is none (a first rollout has
// nothing to go back to).
//
// engine/actions.StableReplicaSet makes this choice on the API objects and
// AbortTarget on the console's view; both must agree, or the confirmation
// would promise one revision and the abort send another.
func PickAbortTarget(cs []AbortCandidate) int {
	best := -1
	for i, c := range cs {
		if best < 0 || c.Available > cs[best].Available ||
			(c.Available == cs[best].Available && c.Revision > cs[best].Revision) {
			best = i
		}
	}
	return best
}
