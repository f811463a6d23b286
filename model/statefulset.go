package model

import (
	"fmt"
	"regexp"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A StatefulSet's pods are <set>-<ordinal>; the controller creates them in
// ordinal order and replaces them from the highest ordinal down, leaving the
// ordinals below the partition at the current revision. The rules follow
// upstream's pkg/controller/statefulset/stateful_set_utils.go.

var statefulPodName = regexp.MustCompile("(.*)-([0-9]+)$")

// StatefulPodOrdinal splits a StatefulSet pod's name into its set's name and
// its ordinal; -1 when the name carries none.
func StatefulPodOrdinal(podName string) (set string, ordinal int) {
	m := statefulPodName.FindStringSubmatch(podName)
	if len(m) < 3 {
		return "", -1
	}
	i, err := strconv.ParseInt(m[2], 10, 32)
	if err != nil {
		return m[1], -1
	}
	return m[1], int(i)
}

// StatefulPodName is the name of the set's pod at ordinal.
func StatefulPodName(set string, ordinal int) string { return fmt.Sprintf("%s-%d", set, ordinal) }

// StatefulSetStartOrdinal is the first ordinal (spec.ordinals.start, or 0).
func StatefulSetStartOrdinal(set *appsv1.StatefulSet) int {
	if set.Spec.Ordinals != nil {
		return int(set.Spec.Ordinals.Start)
	}
	return 0
}

// StatefulSetReplicas is spec.replicas (1 when unset, as defaulted).
func StatefulSetReplicas(set *appsv1.StatefulSet) int32 {
	if set.Spec.Replicas == nil {
		return 1
	}
	return *set.Spec.Replicas
}

// StatefulSetPartition is the rolling update's partition: ordinals below
// start+partition stay at the current revision. 0 for OnDelete.
func StatefulSetPartition(set *appsv1.StatefulSet) int32 {
	ru := set.Spec.UpdateStrategy.RollingUpdate
	if set.Spec.UpdateStrategy.Type != appsv1.RollingUpdateStatefulSetStrategyType || ru == nil || ru.Partition == nil {
		return 0
	}
	return *ru.Partition
}

// StatefulSetMaxUnavailable is how many of the set's pods a rolling update
// may have unavailable at once: spec...maxUnavailable (default 1) of the
// replicas, rounded down, and at least 1 (getStatefulSetMaxUnavailable; the
// MaxUnavailableStatefulSet gate is on by default since 1.35).
func StatefulSetMaxUnavailable(maxUnavailable *intstr.IntOrString, replicas int) (int, error) {
	v := intstr.FromInt32(1)
	if maxUnavailable != nil {
		v = *maxUnavailable
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(&v, replicas, false)
	if err != nil {
		return 0, err
	}
	if n < 1 {
		n = 1
	}
	return n, nil
}

// StatefulReplica is what the rolling update decides on for one ordinal.
type StatefulReplica struct {
	Updated     bool // at the update revision
	Unavailable bool // not running, ready and available, or terminating
	Terminating bool
}

// StatefulSetUpdateVictims is the rolling update's decision once every
// ordinal exists and is healthy enough (updateStatefulSetAfterInvariantEstablished):
// when no more than maxUnavailable of the replicas are unavailable, delete
// up to the difference of the pods not at the update revision, from the
// highest ordinal down to updateMin (the partition). replicas are indexed
// by ordinal minus the start ordinal; the victims are indexes, highest
// first.
func StatefulSetUpdateVictims(replicas []StatefulReplica, updateMin, maxUnavailable int) []int {
	unavailable := 0
	for _, r := range replicas {
		if r.Unavailable {
			unavailable++
		}
	}
	if unavailable > maxUnavailable {
		return nil
	}
	var victims []int
	for i := len(replicas) - 1; i >= updateMin && len(victims) < maxUnavailable-unavailable; i-- {
		if !replicas[i].Updated && !replicas[i].Terminating {
			victims = append(victims, i)
		}
	}
	return victims
}

// StatefulSetRolloutStatus is `kubectl rollout status` for a StatefulSet:
// the sentence kubectl prints, whether it is done, or kubectl's error.
func StatefulSetRolloutStatus(set *appsv1.StatefulSet) (message string, done bool, err error) {
	if set.Spec.UpdateStrategy.Type != appsv1.RollingUpdateStatefulSetStrategyType {
		return "", true, fmt.Errorf("rollout status is only available for %s strategy type", appsv1.RollingUpdateStatefulSetStrategyType)
	}
	s := set.Status
	if s.ObservedGeneration == 0 || set.Generation > s.ObservedGeneration {
		return "Waiting for statefulset spec update to be observed...\n", false, nil
	}
	if set.Spec.Replicas != nil && s.ReadyReplicas < *set.Spec.Replicas {
		return fmt.Sprintf("Waiting for %d pods to be ready...\n", *set.Spec.Replicas-s.ReadyReplicas), false, nil
	}
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if set.Spec.Replicas != nil && ru.Partition != nil && s.UpdatedReplicas < *set.Spec.Replicas-*ru.Partition {
			return fmt.Sprintf("Waiting for partitioned roll out to finish: %d out of %d new pods have been updated...\n",
				s.UpdatedReplicas, *set.Spec.Replicas-*ru.Partition), false, nil
		}
		return fmt.Sprintf("partitioned roll out complete: %d new pods have been updated...\n", s.UpdatedReplicas), true, nil
	}
	if s.UpdateRevision != s.CurrentRevision {
		return fmt.Sprintf("waiting for statefulset rolling update to complete %d pods at revision %s...\n",
			s.UpdatedReplicas, s.UpdateRevision), false, nil
	}
	return fmt.Sprintf("statefulset rolling update complete %d pods at revision %s...\n", s.CurrentReplicas, s.CurrentRevision), true, nil
}
