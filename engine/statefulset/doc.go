// Package statefulset is the embedded StatefulSet controller: it keeps
// spec.replicas pods named <set>-<ordinal>, creates them in ordinal order and,
// on a template change, replaces them from the highest ordinal down, keeping
// the ordinals below spec.updateStrategy.rollingUpdate.partition at the
// current revision, as kube-controller-manager 1.36 does with its default
// feature gates.
//
// It follows upstream's pkg/controller/statefulset:
//
//   - stateful_set.go: sync reads the set, the pods it controls and its
//     ControllerRevisions; a set with minReadySeconds is looked at again once
//     that has passed.
//   - stateful_set_control.go: UpdateStatefulSet → getStatefulSetRevisions
//     (a new revision, or an equal older one brought forward by bumping its
//     number), updateStatefulSet (replicas and condemned pods; OrderedReady
//     stops at the first pod that is not running, ready and available,
//     Parallel goes on), the rolling update of
//     updateStatefulSetAfterInvariantEstablished (MaxUnavailableStatefulSet,
//     beta and on since 1.35: up to maxUnavailable pods at a time, highest
//     ordinal first, never below the partition), completeRollingUpdate, and
//     truncateHistory (revisionHistoryLimit; the current, update and pods'
//     revisions are kept).
//   - stateful_set_utils.go: ordinals, identity labels
//     (statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index),
//     hostname and subdomain, the revision patch and its hash
//     (model.TemplatePatch, model.RevisionHash), newVersionedStatefulSetPod.
//   - stateful_pod_control.go: events in upstream's words ("create Pod web-0
//     in StatefulSet web successful").
//
// Not modelled: PersistentVolumeClaims (volumeClaimTemplates create no
// claims; pods get no claim volumes), adoption of orphaned pods and
// revisions, and status conditions.
package statefulset
