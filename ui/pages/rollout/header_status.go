package rollout

import (
	"rollscope/model/cluster"
)

// statusSentence is the rollout's status line: kubectl's sentence, said to
// be the last known one while the cluster cannot be heard (the banner says
// why), after any template change no ReplicaSet runs yet — on a paused
// deployment after kubectl set image it is the one place the main screen
// shows what resuming (or an undo) will do to it.
func statusSentence(ws cluster.WatchStatus, r cluster.RolloutView) string {
	status := r.Status
	if ws.Synced && !ws.Connected {
		status = "last known: " + status
	}
	switch {
	case r.Pending == "":
		return status
	case r.Paused:
		return "pending, rolled out on resume: " + r.Pending + " · " + status
	}
	return "pending: " + r.Pending + " · " + status
}
