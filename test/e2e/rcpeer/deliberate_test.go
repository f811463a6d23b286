package rcpeer

// The differences from kubectl 1.17 that rollscope keeps on purpose, each
// with why. The peer test removes exactly these from what it compares; any
// other difference fails it. docs/testing.md's peer suites list the
// same.
//
//   - The rename (every case that keeps the name foo). kubectl deletes the
//     next controller, orphaning its pods, polls every 5 s until it is
//     gone, and creates foo at full size: killed in between, no
//     controller is left at all. rollscope first creates foo at size 0
//     selecting no pod, then deletes the next controller, then scales foo
//     up to take the orphans over: killed anywhere, a rerun finishes it
//     (killedAfterEveryWrite in crash_test.go). So the renamed foo's steps differ
//     (0 then full size, against full size); they are left out of the
//     scale steps, and its final state is compared as every other.
//   - The leftovers of --rollback. kubectl leaves next-controller-id and
//     original-replicas on foo, naming a controller that no longer exists;
//     rollscope removes them, so that foo no longer reads as part of an
//     update (the console would show it mid-update, and a later abort
//     would restore a stale size).
//
// Differences that these cases do not see, and so are not removed here:
// the hash values themselves (kubectl hashes the object with its
// resourceVersion; rollscope hashes what stays fixed during the update,
// so a rerun derives the same name), desired-replicas and update-source-id
// kept on the next controller until the rename (they are what tells a
// rerun which update it is in), and the lines of a rerun that finds the
// rename under way (kubectl prints nothing; rollscope says it renames).

// rollbackLeftovers are the annotations kubectl 1.17 leaves on foo after
// --rollback.
var rollbackLeftovers = []string{"kubectl.kubernetes.io/next-controller-id", "kubectl.kubernetes.io/original-replicas"}

// withoutRollbackLeftovers is kubectl's final objects without them.
func withoutRollbackLeftovers(f finals) finals {
	for i := range f.RCs {
		for _, a := range rollbackLeftovers {
			delete(f.RCs[i].Annotations, a)
		}
	}
	return f
}
