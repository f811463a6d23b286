// Package daemonset is the embedded DaemonSet controller: one pod on every
// node the DaemonSet should run on, pinned there by a required node affinity
// on the node's name and bound by the default scheduler, and a rolling update
// within maxUnavailable and maxSurge, as kube-controller-manager 1.36 does.
//
// It follows upstream's pkg/controller/daemon:
//
//   - daemon_controller.go: syncDaemonSet (constructHistory, then manage
//     unless earlier creations and deletions are still unobserved, then the
//     rolling update once they are, then cleanupHistory and the status),
//     podsShouldBeOnNode (create where missing; failed pods deleted with
//     "FailedDaemonPod"; without surge all but the oldest of several pods
//     deleted; with surge an old and a new pod kept only while the new one is
//     not yet available), NodeShouldRunDaemonPod (node name, node affinity and
//     selector, taints against the template's tolerations plus the automatic
//     daemon tolerations; a NoSchedule taint keeps a running pod, a NoExecute
//     one does not), syncNodes (slow-start batches of creations) and
//     updateDaemonSetStatus.
//   - update.go: rollingUpdate (model.DaemonSetRollingUpdate),
//     updatedDesiredNodeCounts (model.DaemonSetBudget), constructHistory
//     (a revision per template: <name>-<pod template hash>, numbered above
//     every old one) and cleanupHistory (revisionHistoryLimit; revisions of
//     live pods are kept).
//   - util/daemonset_util.go: CreatePodTemplate (pod-template-generation and
//     controller-revision-hash labels), the daemon tolerations,
//     ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName, IsPodUpdated.
//
// A node that is not Ready counts as tainted node.kubernetes.io/not-ready
// with NoSchedule, as the node lifecycle controller taints it on a real
// cluster: a daemon pod keeps running there, but a new node gets its pod
// once it is Ready.
//
// Not modelled: the back-off before deleting a failed pod again, adoption of
// orphans, and node walks in upstream's map order (rollscope takes node-name
// order, so runs repeat).
package daemonset
