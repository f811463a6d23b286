package rollingupdate

import (
	"encoding/json"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// The update's state, kept on the controllers. The kubectl.kubernetes.io
// names are upstream's own, so an update kubectl started can be continued.
const (
	// SourceAnnotation on the next controller: "<old name>:<old uid>".
	SourceAnnotation = "kubectl.kubernetes.io/update-source-id"
	// DesiredAnnotation on the next controller: the size it grows to.
	DesiredAnnotation = "kubectl.kubernetes.io/desired-replicas"
	// OriginalAnnotation on the old controller: its size before the update,
	// which an abort restores.
	OriginalAnnotation = "kubectl.kubernetes.io/original-replicas"
	// NextAnnotation on the old controller: the next controller's name.
	NextAnnotation = "kubectl.kubernetes.io/next-controller-id"
	// RenameAnnotation on the next controller: the name it takes back when
	// the update is done (NEXT was not named). Without it, a crash after the
	// old controller is deleted would leave nothing that says so.
	RenameAnnotation = "rollscope.dev/rename-to"
	// RenamingAnnotation on the copy of the next controller that takes the
	// old name: the size it takes once the next controller is gone. While it
	// is there, the copy's selector also requires RenamingLabel, which no pod
	// has, so that it neither creates pods nor adopts the next controller's
	// pods before they are orphaned.
	RenamingAnnotation = "rollscope.dev/renaming"
	RenamingLabel      = "rollscope.dev/renaming"
	// DriverAnnotation on the next controller (and its renamed copy) says
	// that Controller drives the update, so that it goes on after the old
	// controller, and the request on it, are gone. An update that kubectl
	// or the headless command started is left to them.
	DriverAnnotation = "rollscope.dev/rolling-update-driver"
	// RequestAnnotation on the old controller asks Controller for an update;
	// its value is a Request as JSON.
	RequestAnnotation = "rollscope.dev/rolling-update"
)

// rolloutAnnotations are removed from the controller that remains.
var rolloutAnnotations = []string{SourceAnnotation, DesiredAnnotation, OriginalAnnotation, NextAnnotation, RenameAnnotation, RenamingAnnotation, DriverAnnotation, RequestAnnotation}

// DefaultDeploymentKey is the label that tells the two controllers' pods apart.
const DefaultDeploymentKey = "deployment"

// Request is an update as asked for: by the headless command's flags, or by
// the RequestAnnotation's JSON value for Controller.
type Request struct {
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
	// Driver, when set, is written to DriverAnnotation (Controller sets it).
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
	DefaultUpdatePeriod = time.Minute
	DefaultPollInterval = 3 * time.Second
	DefaultTimeout      = 5 * time.Minute
)

// withDefaults fills what the request leaves out with the legacy defaults
// (maxSurge 1, maxUnavailable 0 were hard-coded upstream).
func (r Request) withDefaults() Request {
	if r.DeploymentKey == "" {
		r.DeploymentKey = DefaultDeploymentKey
	}
	if r.UpdatePeriod <= 0 {
		r.UpdatePeriod = Duration(DefaultUpdatePeriod)
	}
	if r.PollInterval <= 0 {
		r.PollInterval = Duration(DefaultPollInterval)
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

// ParseRequest reads a RequestAnnotation value for controller old.
func ParseRequest(old, value string) (Request, error) {
	var r Request
	if err := json.Unmarshal([]byte(value), &r); err != nil {
		return Request{}, fmt.Errorf("read %s on replicationcontroller %q: %w (want JSON such as {\"image\":\"nginx:1.27\"})", RequestAnnotation, old, err)
	}
	r.Old = old
	return r, nil
}

// Annotation is r as a RequestAnnotation value.
func (r Request) Annotation() string {
	b, err := json.Marshal(r)
	if err != nil {
		// Every field marshals; keep the promise of no panics anyway.
		return "{}"
	}
	return string(b)
}
