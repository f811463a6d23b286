package ui

import (
	"context"
	"time"

	"rollscope/model"
)

// RCActions is what the ReplicationController view's keys call; cmd
// implements it next to Actions (the console finds it on Options.Actions).
// An update is asked of the rolling-update controller through the request
// annotation, so it runs whether or not the console stays open.
type RCActions interface {
	// PlanRCUpdate checks what the dialog was given and says what the
	// update will do, writing nothing.
	PlanRCUpdate(ctx context.Context, namespace string, in RCUpdateInput) (RCPlan, error)
	// StartRCUpdate asks for the update the plan describes.
	StartRCUpdate(ctx context.Context, namespace string, req model.RCUpdateRequest) error
	// AbortRCUpdate asks for the rollback of the update name takes part in.
	AbortRCUpdate(ctx context.Context, namespace, name string) error
}

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

// rcPlannedMsg brings a plan (or why there is none) back to the dialog.
type rcPlannedMsg struct {
	in   RCUpdateInput
	plan RCPlan
	err  error
}

// rcDoneMsg is the result of asking for an update or its abort.
type rcDoneMsg struct {
	what string
	err  error
}

// actionContext bounds one request of the view's keys.
func actionContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), ActionTimeout)
}
