package ui

import "rollscope/model"

// withPending puts a template change no ReplicaSet runs yet in front of the
// status sentence: on a paused deployment after kubectl set image it is the
// one place the main screen shows what resuming (or an undo) will do to it.
func withPending(r model.RolloutView, status string) string {
	if r.Pending == "" {
		return status
	}
	if r.Paused {
		return "pending, rolled out on resume: " + r.Pending + " · " + status
	}
	return "pending: " + r.Pending + " · " + status
}
