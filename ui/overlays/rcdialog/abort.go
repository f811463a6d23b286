package rcdialog

import (
	"fmt"
	"strings"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// AbortRefusal says why there is nothing to abort in v, "" when there is.
// The way back comes first: the footer may cut the rest.
func AbortRefusal(v cluster.RCUpdateView) string {
	const instead = "start a new rolling update with the old image (i) to go back"
	switch {
	case !v.Updating:
		return "no update of rc/" + v.Name + " to abort: " + instead
	case v.Phase == model.RCPhaseRename || v.Old.Images == nil:
		return "nothing old left to restore (" + v.Next.Name + " is being renamed to " + v.Name + "): let it finish, then " + instead
	case v.Next.Images == nil:
		return "nothing to abort, " + draw.OrDash(v.Next.Name) + " does not exist: " + instead
	case v.Rollback:
		return "the update of rc/" + v.Name + " is already being rolled back"
	}
	return ""
}

// abortLines say what aborting the update in v will do.
func abortLines(v cluster.RCUpdateView) []string {
	return []string{
		fmt.Sprintf("%s grows back to %s (%s), %s shrinks to 0 and is deleted", v.Old.Name, model.Plural(original(v), "replica"), strings.Join(v.Old.Images, ","), v.Next.Name),
		"The same limits apply with the roles swapped",
	}
}

// original is the size an abort restores.
func original(v cluster.RCUpdateView) int32 {
	if v.Original > 0 {
		return v.Original
	}
	return v.Desired
}
