package drain

import (
	"encoding/json"
	"fmt"
	"time"
)

// RetryDelay is how long a drain waits before evicting again a pod whose
// PodDisruptionBudget refused (kubectl's EvictErrorRetryDelay).
const RetryDelay = 5 * time.Second

// Options are kubectl drain's flags.
type Options struct {
	// GracePeriodSeconds overrides the pods' own termination grace period
	// when set (kubectl's --grace-period; nil is kubectl's -1).
	GracePeriodSeconds *int64 `json:"gracePeriodSeconds,omitempty"`
	// Timeout gives up the drain after this long (--timeout); zero waits
	// for ever. Written as a Go duration ("90s").
	Timeout Duration `json:"timeout,omitempty"`
	// Force drains pods that declare no controller (--force).
	Force bool `json:"force,omitempty"`
	// IgnoreDaemonSets skips DaemonSet pods instead of refusing the drain.
	IgnoreDaemonSets bool `json:"ignoreDaemonSets,omitempty"`
	// DeleteEmptyDirData drains pods with emptyDir volumes, losing the data.
	DeleteEmptyDirData bool `json:"deleteEmptyDirData,omitempty"`
	// DisableEviction deletes pods instead of evicting them, bypassing
	// PodDisruptionBudgets.
	DisableEviction bool `json:"disableEviction,omitempty"`
	// SkipWaitForDeleteTimeoutSeconds, when positive, skips pods whose
	// deletion started more than that many seconds ago.
	SkipWaitForDeleteTimeoutSeconds int `json:"skipWaitForDeleteTimeoutSeconds,omitempty"`
}

// Duration is a time.Duration written as a Go duration string in JSON.
type Duration time.Duration

// MarshalJSON writes the duration as "1m30s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a Go duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration must be a string like \"90s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// Validate reports options no drain can run with.
func (o Options) Validate() error {
	if o.Timeout < 0 {
		return fmt.Errorf("drain timeout %v is negative (use 0 to wait for ever)", time.Duration(o.Timeout))
	}
	if o.GracePeriodSeconds != nil && *o.GracePeriodSeconds < -1 {
		return fmt.Errorf("grace period %ds is negative (use -1 for each pod's own)", *o.GracePeriodSeconds)
	}
	if o.SkipWaitForDeleteTimeoutSeconds < 0 {
		return fmt.Errorf("skip-wait-for-delete-timeout %ds is negative", o.SkipWaitForDeleteTimeoutSeconds)
	}
	return nil
}

// encode is the request annotation's value.
func (o Options) encode() string {
	b, _ := json.Marshal(o) // a struct of plain fields always marshals
	return string(b)
}

// ParseOptions reads a request annotation's value.
func ParseOptions(s string) (Options, error) {
	var o Options
	if err := json.Unmarshal([]byte(s), &o); err != nil {
		return o, fmt.Errorf("drain request %q is not valid options JSON: %w", s, err)
	}
	return o, o.Validate()
}
