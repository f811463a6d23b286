package rollingupdate

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Status is an update as the console shows it: the two controllers side by
// side, the phase, and the headroom the legacy limits leave.
type Status struct {
	Old, Next         string
	OldSize, NextSize int32
	Desired           int32
	Phase             Phase
	// Rollback is true when the update is being aborted (the old controller
	// is growing back).
	Rollback bool
	Limits   Limits
}

// Describe finds the update controller name takes part in, from the
// annotations alone (as read from a cache), with the legacy limits
// (maxSurge 1, maxUnavailable 0). ok is false when there is none.
func Describe(rcs []*corev1.ReplicationController, name string) (Status, bool) {
	byName := map[string]*corev1.ReplicationController{}
	for _, rc := range rcs {
		byName[rc.Name] = rc
	}
	rc := byName[name]
	if rc == nil {
		return Status{}, false
	}
	var old, next *corev1.ReplicationController
	switch {
	case rc.Annotations[NextAnnotation] != "":
		old, next = rc, byName[rc.Annotations[NextAnnotation]]
	case rc.Annotations[SourceAnnotation] != "":
		src, _, _ := strings.Cut(rc.Annotations[SourceAnnotation], ":")
		old, next = byName[src], rc
	case rc.Annotations[RenameAnnotation] != "":
		old, next = byName[rc.Annotations[RenameAnnotation]], rc
	case rc.Annotations[RenamingAnnotation] != "":
		return Status{Old: rc.Name, Phase: PhaseRename, OldSize: size(rc)}, true
	default:
		return Status{}, false
	}
	s := Status{Phase: PhaseRollout}
	if old != nil {
		s.Old, s.OldSize = old.Name, size(old)
	}
	if next != nil {
		s.Next, s.NextSize = next.Name, size(next)
	}
	source, target := old, next
	if old != nil && next != nil && old.Annotations[SourceAnnotation] == sourceID(next) {
		s.Rollback = true
		source, target = next, old
	}
	switch {
	case target == nil && source != nil:
		s.Phase = PhasePrepare
		s.Desired, _ = annotationInt(source, OriginalAnnotation)
	case source == nil && target != nil:
		s.Phase = PhaseRename
		s.Desired = size(target)
	case target != nil:
		s.Desired, _ = annotationInt(target, DesiredAnnotation)
		if size(source) == 0 && size(target) == s.Desired {
			s.Phase = PhaseFinish
		}
	}
	surge, unavailable := intstr.FromInt32(1), intstr.FromInt32(0)
	var oldSize int32
	if source != nil {
		oldSize = size(source)
	}
	s.Limits, _ = NewLimits(s.Desired, oldSize, surge, unavailable)
	return s, true
}
