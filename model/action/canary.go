package action

import (
	"fmt"
	"strings"

	"rollscope/model/argo"
)

// canarySpec is a guided canary's row. Every step is one update of the
// Deployment written with the resourceVersion read, and the console's
// canary controller, which drives the canary on a live cluster as the same
// user, reads the new ReplicaSet's pods and their events and writes the
// same way (abort also reads the ReplicaSets to find the stable one).
func canarySpec(n Name, key, help string, starts bool) Spec {
	return Spec{Name: n, Keys: []string{key}, Help: help, Group: GroupRollout, On: OnDeployment,
		Needs: []Permission{getDeployments, listReplicaSets, updateDeployment, listPods, listEvents}, Writes: true, StartsRollout: starts,
		Canary: true}
}

var listEvents = Permission{Verb: "list", Resource: "events"}

// CanarySettings are a canary's steps as the dialog or a scenario line
// gives them, and which step a promote was pressed on.
type CanarySettings struct {
	// Steps are pod counts or percentages of replicas ("1", "10%"); the
	// last step is always 100%. Holds are one hold for every step before
	// it, or one each: "pause" or a duration ("2m").
	Steps, Holds []string
	// OnFailure is pause (the default) or abort.
	OnFailure string
	// FromStep is the step the operator saw when promoting (0: any), so
	// that a canary that moved on meanwhile is not promoted twice.
	FromStep int
	// Gates are metric gates written out (a scenario's, a config file's),
	// and Templates the AnalysisTemplates ("error-rate") or
	// ClusterAnalysisTemplates ("cluster/latency") in the cluster whose
	// metrics join them when the canary is planned.
	Gates     []argo.Metric
	Templates []string
}

// canaryKubectl is what a canary request sends, for the confirmation.
func (r Request) canaryKubectl() string {
	d := "deployment/" + r.Name
	switch r.Action {
	case Canary:
		return "no kubectl command does this: one update of " + d + " per step (template, maxSurge = the step's pods, maxUnavailable 0, a hold on minReadySeconds), written with the resourceVersion read"
	case Promote, PromoteAll:
		return "no kubectl command does this: one update of " + d + " to the next step's maxSurge, or its own strategy back at 100%, written with the resourceVersion read"
	}
	return ""
}

// canarySummary names a canary request in a few words.
func (r Request) canarySummary() string {
	switch r.Action {
	case Canary:
		change := r.Container + "=" + r.Image
		if r.Image == "" {
			change = r.Container + " " + r.Env
		}
		return fmt.Sprintf("canary %s (steps %s)", change, strings.Join(r.Canary.Steps, ", "))
	case Promote:
		if r.Canary.FromStep > 0 {
			return fmt.Sprintf("promote the canary from step %d", r.Canary.FromStep)
		}
		return "promote the canary"
	case PromoteAll:
		return "promote the canary to 100%"
	}
	return ""
}

// GateReading is one metric gate as the plan's confirmation shows it
// before anything is sent: where it came from, its query with the
// canary's arguments filled, and what its provider answers now.
type GateReading struct {
	// Metric is the gate's name; Template the AnalysisTemplate or
	// ClusterAnalysisTemplate it came from ("" when written out).
	Metric, Template string
	// Query is the Prometheus query as it will be sent.
	Query string
	// Value is the provider's answer as Argo records it ("[0.012]");
	// Phase what the gate's conditions make of it now.
	Value string
	Phase argo.AnalysisPhase
	// Schedule is when each step reads it: "every 5s, 3 measurements once
	// the step's pods are ready".
	Schedule string
}
