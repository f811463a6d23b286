// Package argorollout is the embedded cluster's Argo Rollouts controller
// for the basic canary (a canary without a traffic router): it rolls a
// Rollout's pods from its stable ReplicaSet to a new one step by step the
// way Argo's controller (argo-rollouts v1.10, rollout/canary.go) does —
// ReplicaSets named <rollout>-<hash> carrying rollouts-pod-template-hash,
// scaled at each setWeight by Argo's arithmetic (model/argo), indefinite
// and timed pauses recorded as status.pauseConditions, other ReplicaSets
// scaled down within maxUnavailable, and the stable ReplicaSet moved to the
// new one when the steps end — and writes the status Argo writes: the step
// index and hashes, the replica counts, the conditions Progressing,
// Available, Paused, Healthy and Completed, and the phase and message
// `kubectl argo rollouts` shows.
//
// What the plugin's actions write is carried out as Argo does: a cleared
// pause condition (promote) moves to the next step, status.promoteFull
// skips the rest, status.abort scales the new ReplicaSet away and
// status.abort false (retry) starts the steps over, spec.paused holds all
// scaling, a scaling event only resizes, an undo's template takes its
// older ReplicaSet back at the next revision (to the stable one: the steps
// are skipped), and the progress deadline marks Progressing False or, with
// progressDeadlineAbort, aborts; after spec.restartAt the pods older than
// it are evicted within maxUnavailable until none is left.
//
// It is written against engine/control like engine/deployment: handlers
// only enqueue keys, Sync reads the runner's caches (which hold Rollouts
// decoded into model/argo's type) and writes through the API, ReplicaSets
// through the typed client and Rollouts through the dynamic one, with the
// merge patches Argo sends.
//
// A blue/green Rollout is run as Argo's rollout/bluegreen.go does
// (bluegreen.go): the preview Service selects the new ReplicaSet's
// rollouts-pod-template-hash from its creation, the new ReplicaSet is
// scaled to full (or previewReplicaCount), the BlueGreenPause is added
// without auto-promotion or for autoPromotionSeconds, and once the new
// ReplicaSet is saturated and the pause is over the active Service is
// switched to it and it becomes stable; the old one gets Argo's
// scale-down-deadline annotation (scaleDownDelaySeconds, 30 s by default,
// within scaleDownDelayRevisionLimit) and is scaled to zero when it passes.
// An abort switches the active Service back to the stable ReplicaSet and
// scales the preview one down after abortScaleDownDelaySeconds. Services
// are read and patched through the typed client.
//
// Traffic routers, canary and stable services, analysis and experiments
// are not run (model/argo's Unmodelled): such a Rollout is left as it is,
// a scenario refuses it and a forecast declines it.
package argorollout
