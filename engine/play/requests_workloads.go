package play

import (
	"fmt"

	"rollscope/engine/scenario"
	"rollscope/model/action"
	"rollscope/model/kind"
)

// workloadActions are the requests of a scripted action on a StatefulSet or
// a DaemonSet, by the scenario's action name.
var workloadActions = map[kind.Kind]map[string]action.Name{
	kind.StatefulSet: {
		scenario.ActionSetImage: action.StatefulSetSetImage, scenario.ActionSetEnv: action.StatefulSetSetEnv,
		scenario.ActionRestart: action.StatefulSetRestart, scenario.ActionUndo: action.StatefulSetUndo,
		scenario.ActionScale: action.StatefulSetScale, scenario.ActionPartition: action.StatefulSetPartition,
	},
	kind.DaemonSet: {
		scenario.ActionSetImage: action.DaemonSetSetImage, scenario.ActionSetEnv: action.DaemonSetSetEnv,
		scenario.ActionRestart: action.DaemonSetRestart, scenario.ActionUndo: action.DaemonSetUndo,
	},
}

// workloadRequests are a scripted action on a StatefulSet or DaemonSet as
// the kind's view sends it; false for other targets.
func workloadRequests(a scenario.Action, namespace string) ([]action.Request, bool, error) {
	names, ok := workloadActions[a.Target.Kind]
	if !ok {
		return nil, false, nil
	}
	name, ok := names[a.Kind]
	if !ok {
		return nil, true, fmt.Errorf("line %d: %s does not apply to %s", a.Line, a.Kind, a.Target)
	}
	r := action.Request{Action: name, Namespace: namespace, Name: a.Target.Name, Container: a.Container, Image: a.Image,
		Revision: a.ToRevision, Replicas: a.Replicas, Partition: a.Partition}
	if a.Kind != scenario.ActionSetEnv {
		return []action.Request{r}, true, nil
	}
	out := envRequests(r, a)
	for i := range out {
		out[i].Action = name
	}
	return out, true, nil
}
