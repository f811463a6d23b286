package argo

import (
	"encoding/json"
	"maps"
	"slices"
)

// A strategy field Argo does not have is dropped by a plain decode and
// Argo's controller never runs the Rollout; the strategy keeps such fields
// in Unknown, and writes them back, so that a check can say which.

// strategyFields are the strategy's fields as Argo spells them.
type strategyFields struct {
	BlueGreen *BlueGreenStrategy `json:"blueGreen,omitempty"`
	Canary    *CanaryStrategy    `json:"canary,omitempty"`
}

func (s *RolloutStrategy) UnmarshalJSON(b []byte) error {
	var known strategyFields
	if err := json.Unmarshal(b, &known); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	delete(all, "blueGreen")
	delete(all, "canary")
	*s = RolloutStrategy{BlueGreen: known.BlueGreen, Canary: known.Canary}
	if len(all) > 0 {
		s.Unknown = all
	}
	return nil
}

func (s RolloutStrategy) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(strategyFields{BlueGreen: s.BlueGreen, Canary: s.Canary})
	if err != nil || len(s.Unknown) == 0 {
		return b, err
	}
	all := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	maps.Copy(all, s.Unknown)
	return json.Marshal(all)
}

// UnknownFields are the names of Unknown, sorted.
func (s RolloutStrategy) UnknownFields() []string {
	return slices.Sorted(maps.Keys(s.Unknown))
}

// KeepsPreviewOnAbort reports whether an aborted update's preview
// ReplicaSet stays up for good (abortScaleDownDelaySeconds: 0) rather than
// being scaled down after the delay.
func (bg *BlueGreenStrategy) KeepsPreviewOnAbort() bool {
	return bg.AbortScaleDownDelaySeconds != nil && *bg.AbortScaleDownDelaySeconds == 0
}
