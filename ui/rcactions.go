package ui

import (
	"context"

	"rollscope/model/action"
)

// rcPlannedMsg brings a plan (or why there is none) back to the dialog.
type rcPlannedMsg struct {
	in   action.RCUpdateInput
	plan action.RCPlan
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
