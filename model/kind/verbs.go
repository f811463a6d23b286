package kind

// Verb is one of kubectl's commands on a workload (or of Argo's kubectl
// plugin, on a Rollout), as a kind's view offers it. An Entry lists the verbs its kind takes; the action table, the
// dispatch, the view's prompts and the scenario reader build their rows and
// cases from that list, so a kind's actions are data of its entry.
type Verb string

// The verbs; an action's name is the kind's short name and its verb
// (sts-set-image, ds-undo).
const (
	// SetImage is `kubectl set image`.
	SetImage Verb = "set-image"
	// SetEnv is `kubectl set env -c CONTAINER NAME=value` (or NAME-).
	SetEnv Verb = "set-env"
	// Restart is `kubectl rollout restart`.
	Restart Verb = "restart"
	// Undo is `kubectl rollout undo --to-revision=N`, to a revision of the
	// kind's ControllerRevisions.
	Undo Verb = "undo"
	// Scale is `kubectl scale --replicas=N`.
	Scale Verb = "scale"
	// Partition holds a rolling update at an ordinal: below it no pod is
	// updated (a patch of updateStrategy.rollingUpdate.partition).
	Partition Verb = "partition"

	// Argo's kubectl plugin's commands on a Rollout (`kubectl argo
	// rollouts …`); model/argo has their rules.

	// Promote is `promote`: past the pause or the step the Rollout is at.
	Promote Verb = "promote"
	// PromoteFull is `promote --full`: straight to the new template,
	// skipping the remaining steps, pauses and analysis.
	PromoteFull Verb = "promote-full"
	// Abort is `abort`: back to the stable ReplicaSet.
	Abort Verb = "abort"
	// Retry is `retry rollout`: an aborted Rollout goes through its steps
	// again.
	Retry Verb = "retry"
	// Pause is `pause`: spec.paused.
	Pause Verb = "pause"
	// Resume clears a pause made by hand (spec.paused) and nothing else.
	Resume Verb = "resume"
)
