package action

import (
	"time"

	"rollscope/model"
)

// RCUpdateInput is the rolling update dialog's fields as typed.
type RCUpdateInput struct {
	Name, Image                            string
	MaxSurge, MaxUnavailable, UpdatePeriod string
}

// RCPlan is what a rolling update will do, shown before it is asked for.
type RCPlan struct {
	Request model.RCUpdateRequest
	// Next is the next controller's name; Rename is true when it takes the
	// old name back at the end.
	Next      string
	Rename    bool
	Container string
	// FromImage is the container's image now.
	FromImage string
	Replicas  int32
	Limits    model.RCLimits
	// UpdatePeriod is the wait after each scale-up.
	UpdatePeriod time.Duration
}
