// Package canary runs a guided canary on a plain Deployment: the new
// version on exactly the step's number of pods, held there until the
// operator promotes it or a timed hold passes with its health gates, then
// the next step, and at the end the Deployment's own rollout — with
// nothing installed on the cluster and nothing but the Deployment's own
// fields.
//
// # The technique, and why it is exact
//
// Upstream's deployment controller gives three facts to build on (read in
// k8s.io/kubernetes v1.36.3, the version test/e2e runs):
//
//   - getNewReplicaSet (pkg/controller/deployment/sync.go) copies
//     spec.minReadySeconds from the Deployment to its new ReplicaSet only,
//     on creation and on every sync (minReadySecondsNeedsUpdate); old
//     ReplicaSets keep theirs.
//   - A pod counts as available once it has been ready for minReadySeconds
//     (IsPodAvailable, pkg/api/v1/pod/util.go; the ReplicaSet controller
//     counts status.availableReplicas with its own ReplicaSet's
//     minReadySeconds). time.Duration(2147483646) * time.Second is about 68
//     years and does not overflow an int64 of nanoseconds.
//   - With maxUnavailable 0, reconcileOldReplicaSets
//     (pkg/controller/deployment/rolling.go) scales old ReplicaSets down by
//     at most maxScaledDown = allPodsCount − minAvailable −
//     newRSUnavailablePodCount = (replicas + n) − replicas − n = 0 while the
//     new ReplicaSet's n pods are not available (and leaves before its
//     cleanupUnhealthyReplicas when that is 0); and NewRSNewReplicas
//     (pkg/controller/deployment/util/deployment_util.go) grows the new
//     ReplicaSet to replicas + maxSurge − currentPodCount, an absolute
//     maxSurge of n giving exactly n new pods, never one more (every pod of
//     the old ReplicaSet still counts, since none is ever scaled down).
//
// So a step of n pods is one write: maxSurge n, maxUnavailable 0,
// minReadySeconds 2147483646 (model.CanaryHoldMinReadySeconds) and — since
// validation wants progressDeadlineSeconds above minReadySeconds —
// progressDeadlineSeconds 2147483647, which upstream reads as "no
// deadline" (HasProgressDeadline in deployment_util.go; the check is
// ValidateDeploymentSpec's "must be greater than minReadySeconds" in
// pkg/apis/apps/validation), so the held Deployment never reports
// ProgressDeadlineExceeded. The first step also changes the
// template. The new pods become ready but never available; the old
// ReplicaSet keeps every pod, so availability never drops; there is no
// race with the controller, unlike a pause pressed at the right moment.
// The canary enforces each step's progress deadline itself, from the
// Deployment's own progressDeadlineSeconds.
//
// The last step (100%) puts back the Deployment's own strategy,
// minReadySeconds and progressDeadlineSeconds in one write: the new
// ReplicaSet's minReadySeconds follows, its ready pods become available,
// and the controller manager finishes the rollout with the Deployment's own
// budgets. Abort puts them back too and returns the template to the stable
// revision, as x does. Every way out leaves the strategy exactly as it was.
//
// rollscope's embedded controllers do each piece the same way
// (engine/deployment/newrs.go syncs minReadySeconds to the new ReplicaSet
// only; engine/replicaset counts availability with model.IsPodAvailable,
// whose hold never overflows — model's TestIsPodAvailableWithTheHoldNeverOverflows;
// model.HasProgressDeadline reads MaxInt32 as none; NewRSNewReplicas and
// reconcileOldReplicaSets are upstream's, checked against its cases).
// engine/embedded's canary tests hold the promises at every change, and
// test/e2e/canary holds them against kube-controller-manager itself.
//
// Two costs, said plainly: every write of the canary's annotations (a step,
// a lease renewal every model.CanaryLeaseRenew) bumps the Deployment's
// generation, as any annotation change does upstream, so the controller
// manager has a new generation to observe each time; and a rollback sent
// past rollscope (kubectl rollout undo) mid-step drops the annotations with
// the template but keeps the hold — rollscope then refuses a new canary
// until the strategy is set back (x does both at once).
//
// # State, resuming, and one driver
//
// The plan (with the settings it replaced) and the step live in
// rollscope.dev/ annotations on the Deployment (model.CanaryAnnotation and
// its siblings): a rollscope started again reads them and goes on. The
// Deployment is labelled model.CanaryLabel as long as they are there, so a
// console's controllers watch only canaries' Deployments, not every
// rollout's status writes (LabelEarlierCanaries labels a canary an earlier
// rollscope left without it; the controller puts the label back when
// someone takes it off, which such a watch reports as a deletion). Every
// write is an update with the resourceVersion read, so it never overwrites
// a change it did not see. The one that drives — evaluates the gates,
// times holds, fails steps — holds a lease in rollscope.dev/canary-lease
// (holder and renew time), taken and renewed by such updates; another
// console sees the lease and only watches until it lapses.
//
// The Controller runs under either runner (engine/control): in the embedded
// cluster (engine/embedded) and, on a live cluster, among the console's
// controllers (engine/live's StartConsoleControllers). A canary whose
// Deployment someone else changed mid-step is stale: the controller ends it,
// putting the Deployment's own settings back if it still carries the hold,
// and a forecast plays the same rule on its copy (EndStale) so that it
// rehearses the Deployment's own strategy rather than the hold's.
package canary
