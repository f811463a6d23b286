package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A ReplicationController rolling update keeps its whole state on the two
// controllers, so that whoever reads them (the engine that drives the update,
// the console that shows it) agrees on where it stands. The
// kubectl.kubernetes.io names are upstream's own, so an update kubectl
// started can be continued and shown.
const (
	// RCSourceAnnotation on the next controller: "<old name>:<old uid>".
	RCSourceAnnotation = "kubectl.kubernetes.io/update-source-id"
	// RCDesiredAnnotation on the next controller: the size it grows to.
	RCDesiredAnnotation = "kubectl.kubernetes.io/desired-replicas"
	// RCOriginalAnnotation on the old controller: its size before the
	// update, which an abort restores.
	RCOriginalAnnotation = "kubectl.kubernetes.io/original-replicas"
	// RCNextAnnotation on the old controller: the next controller's name.
	RCNextAnnotation = "kubectl.kubernetes.io/next-controller-id"
	// RCRenameAnnotation on the next controller: the name it takes back when
	// the update is done (NEXT was not named). Without it, a crash after the
	// old controller is deleted would leave nothing that says so.
	RCRenameAnnotation = Prefix + "rename-to"
	// RCRenamingAnnotation on the copy of the next controller that takes
	// the old name: the size it takes once the next controller is gone.
	// While it is there, the copy's selector also requires RCRenamingLabel,
	// which no pod has, so that it neither creates pods nor adopts the next
	// controller's pods before they are orphaned.
	RCRenamingAnnotation = Prefix + "renaming"
	RCRenamingLabel      = Prefix + "renaming"
	// RCDriverAnnotation on the next controller (and its renamed copy) says
	// that the rolling-update controller drives the update, so that it goes
	// on after the old controller, and the request on it, are gone. An
	// update that kubectl or the headless command started is left to them.
	RCDriverAnnotation = Prefix + "rolling-update-driver"
	// RCRequestAnnotation on the old controller asks the rolling-update
	// controller for an update; its value is an RCUpdateRequest as JSON.
	RCRequestAnnotation = Prefix + "rolling-update"
)

// RCUpdateAnnotations are every annotation an update puts on a controller;
// none is left on the controller that remains.
var RCUpdateAnnotations = []string{RCSourceAnnotation, RCDesiredAnnotation, RCOriginalAnnotation, RCNextAnnotation,
	RCRenameAnnotation, RCRenamingAnnotation, RCDriverAnnotation, RCRequestAnnotation}

// RCUpdateRequest is a rolling update as asked for: by the headless command's
// flags, the console's dialog, or a scenario, written as RCRequestAnnotation.
type RCUpdateRequest struct {
	// Old is the controller being updated (not part of the annotation: it is
	// the annotated controller).
	Old string `json:"-"`
	// Next names the next controller; empty derives "<old>-<hash>" and
	// renames the result back to Old at the end.
	Next string `json:"next,omitempty"`
	// Image is the new image; empty continues whatever update is in progress.
	Image string `json:"image,omitempty"`
	// Container is the container whose image changes; empty is the first.
	Container string `json:"container,omitempty"`
	// ImagePullPolicy is required when Image is the current image.
	ImagePullPolicy string `json:"imagePullPolicy,omitempty"`
	DeploymentKey   string `json:"deploymentKey,omitempty"`
	// UpdatePeriod is the wait after a scale-up and while nothing can move;
	// PollInterval the wait for a controller to reach its size.
	UpdatePeriod   Duration            `json:"updatePeriod,omitempty"`
	PollInterval   Duration            `json:"pollInterval,omitempty"`
	MaxSurge       *intstr.IntOrString `json:"maxSurge,omitempty"`
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// Rollback aborts: the old controller grows back, the next one goes.
	Rollback bool `json:"rollback,omitempty"`
	// Driver, when set, is written to RCDriverAnnotation (the controller
	// sets it).
	Driver string `json:"-"`
}

// Duration is a time.Duration written as "1m30s" in JSON.
type Duration time.Duration

// MarshalJSON writes d as Go duration text.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads Go duration text ("30s").
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is text such as \"30s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("a duration is text such as \"30s\": %w", err)
	}
	*d = Duration(v)
	return nil
}

// The legacy command's defaults.
const (
	DefaultRCUpdatePeriod  = time.Minute
	DefaultRCPollInterval  = 3 * time.Second
	DefaultRCDeploymentKey = "deployment"
)

// WithDefaults fills what the request leaves out with the legacy defaults
// (maxSurge 1, maxUnavailable 0 were hard-coded upstream).
func (r RCUpdateRequest) WithDefaults() RCUpdateRequest {
	if r.DeploymentKey == "" {
		r.DeploymentKey = DefaultRCDeploymentKey
	}
	if r.UpdatePeriod <= 0 {
		r.UpdatePeriod = Duration(DefaultRCUpdatePeriod)
	}
	if r.PollInterval <= 0 {
		r.PollInterval = Duration(DefaultRCPollInterval)
	}
	if r.MaxSurge == nil {
		v := intstr.FromInt32(1)
		r.MaxSurge = &v
	}
	if r.MaxUnavailable == nil {
		v := intstr.FromInt32(0)
		r.MaxUnavailable = &v
	}
	return r
}

// ParseRCUpdateRequest reads an RCRequestAnnotation value for controller old.
func ParseRCUpdateRequest(old, value string) (RCUpdateRequest, error) {
	var r RCUpdateRequest
	if err := json.Unmarshal([]byte(value), &r); err != nil {
		return RCUpdateRequest{}, fmt.Errorf("read %s on replicationcontroller %q: %w (want JSON such as {\"image\":\"nginx:1.27\"})", RCRequestAnnotation, old, err)
	}
	r.Old = old
	return r, nil
}

// Annotation is r as an RCRequestAnnotation value.
func (r RCUpdateRequest) Annotation() string {
	b, err := json.Marshal(r)
	if err != nil {
		// Every field marshals; keep the promise of no panics anyway.
		return "{}"
	}
	return string(b)
}

// RCLimits are an update's resolved bounds, fixed when it starts from the
// desired size of the next controller.
type RCLimits struct {
	Desired        int32
	MaxSurge       int32
	MaxUnavailable int32
	// MinAvailable is how many pods must stay available while old pods go.
	MinAvailable int32
}

// NewRCLimits resolves maxSurge and maxUnavailable against desired the way
// the legacy updater does: surge rounds up, unavailability down, both zero
// lets one pod go; scaling to zero may take every old pod at once.
func NewRCLimits(desired, oldReplicas int32, maxSurge, maxUnavailable intstr.IntOrString) (RCLimits, error) {
	surge, unavailable, err := ResolveFenceposts(&maxSurge, &maxUnavailable, desired)
	if err != nil {
		return RCLimits{}, fmt.Errorf("rolling update limits: %w", err)
	}
	if desired > 0 && surge == 0 && unavailable == 0 {
		return RCLimits{}, errors.New("one of maxSurge or maxUnavailable must be specified")
	}
	l := RCLimits{Desired: desired, MaxSurge: surge, MaxUnavailable: unavailable, MinAvailable: max(0, desired-unavailable)}
	if desired == 0 {
		l.MaxUnavailable = oldReplicas
		l.MinAvailable = 0
	}
	return l, nil
}

// Ceiling is the most pods the update may run at once.
func (l RCLimits) Ceiling() int32 { return l.Desired + l.MaxSurge }

// RCPhase is where an update stands, as read from the objects.
type RCPhase string

// The phases the console and the progress lines name.
const (
	RCPhasePrepare  RCPhase = "prepare"
	RCPhaseRollout  RCPhase = "rollout"
	RCPhaseRename   RCPhase = "rename"
	RCPhaseFinish   RCPhase = "finish"
	RCPhaseDone     RCPhase = "done"
	RCPhaseRollback RCPhase = "rollback"
)

// RCUpdateStatus is an update as the console shows it: the two controllers
// side by side, the phase, and the headroom the limits leave.
type RCUpdateStatus struct {
	Old, Next         string
	OldSize, NextSize int32
	Desired           int32
	Phase             RCPhase
	// Rollback is true when the update is being aborted (the old controller
	// is growing back).
	Rollback bool
	Limits   RCLimits
	// Request is the request the rolling-update controller is following,
	// when one is on the old controller.
	Request *RCUpdateRequest
}

// DescribeRCUpdate finds the update controller name takes part in, from the
// annotations alone (as read from a cache). The limits are the request's
// when the rolling-update controller runs it, else the legacy ones
// (maxSurge 1, maxUnavailable 0). ok is false when there is none.
func DescribeRCUpdate(rcs []*corev1.ReplicationController, name string) (RCUpdateStatus, bool) {
	byName := map[string]*corev1.ReplicationController{}
	for _, rc := range rcs {
		byName[rc.Name] = rc
	}
	rc := byName[name]
	if rc == nil {
		return RCUpdateStatus{}, false
	}
	var old, next *corev1.ReplicationController
	switch {
	case rc.Annotations[RCNextAnnotation] != "":
		old, next = rc, byName[rc.Annotations[RCNextAnnotation]]
	case rc.Annotations[RCSourceAnnotation] != "":
		src, _, _ := strings.Cut(rc.Annotations[RCSourceAnnotation], ":")
		old, next = byName[src], rc
	case rc.Annotations[RCRenameAnnotation] != "":
		old, next = byName[rc.Annotations[RCRenameAnnotation]], rc
	case rc.Annotations[RCRenamingAnnotation] != "":
		return RCUpdateStatus{Old: rc.Name, Phase: RCPhaseRename, OldSize: RCReplicas(rc)}, true
	default:
		return RCUpdateStatus{}, false
	}
	s := RCUpdateStatus{Phase: RCPhaseRollout}
	req := RCUpdateRequest{}.WithDefaults()
	if old != nil {
		s.Old, s.OldSize = old.Name, RCReplicas(old)
		if v, ok := old.Annotations[RCRequestAnnotation]; ok {
			if r, err := ParseRCUpdateRequest(old.Name, v); err == nil {
				s.Request = &r
				req = r.WithDefaults()
			}
		}
	}
	if next != nil {
		s.Next, s.NextSize = next.Name, RCReplicas(next)
	}
	source, target := old, next
	if old != nil && next != nil && old.Annotations[RCSourceAnnotation] == next.Name+":"+string(next.UID) {
		s.Rollback = true
		source, target = next, old
	}
	switch {
	case target == nil && source != nil:
		s.Phase = RCPhasePrepare
		// original-replicas comes after the next controller, in kubectl's
		// order: until then the old controller's size is the goal.
		var ok bool
		if s.Desired, ok = RCAnnotationInt(source, RCOriginalAnnotation); !ok {
			s.Desired = RCReplicas(source)
		}
	case source == nil && target != nil:
		s.Phase = RCPhaseRename
		s.Desired = RCReplicas(target)
	case target != nil:
		s.Desired, _ = RCAnnotationInt(target, RCDesiredAnnotation)
		if RCReplicas(source) == 0 && RCReplicas(target) == s.Desired {
			s.Phase = RCPhaseFinish
		}
	}
	var oldSize int32
	if source != nil {
		oldSize = RCReplicas(source)
	}
	s.Limits, _ = NewRCLimits(s.Desired, oldSize, *req.MaxSurge, *req.MaxUnavailable)
	return s, true
}

// RCAnnotationInt reads a count annotation; ok is false when it is missing
// or not a count.
func RCAnnotationInt(rc *corev1.ReplicationController, key string) (int32, bool) {
	v, ok := rc.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil || n < 0 {
		return 0, false
	}
	return int32(n), true
}

// RCReplicas is spec.replicas, which defaults to 1.
func RCReplicas(rc *corev1.ReplicationController) int32 {
	if rc.Spec.Replicas == nil {
		return 1
	}
	return *rc.Spec.Replicas
}

// RCUpdating reports whether rc takes part in a rolling update, asked for or
// under way: something is still to happen to it.
func RCUpdating(rc *corev1.ReplicationController) bool {
	for _, a := range RCUpdateAnnotations {
		if _, ok := rc.Annotations[a]; ok {
			return true
		}
	}
	return false
}
