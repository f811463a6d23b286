package play

import (
	"fmt"

	"rollscope/engine/scenario"
	"rollscope/model/action"
)

// workloadRequests are a scripted action on a kind whose registry entry
// lists verbs (a StatefulSet, a DaemonSet) as the kind's view sends it;
// false for other targets.
func workloadRequests(a scenario.Action, namespace string) ([]action.Request, bool, error) {
	if e, ok := a.Target.Kind.Entry(); !ok || len(e.Verbs) == 0 {
		return nil, false, nil
	}
	v, _ := a.Verb()
	name, ok := action.OfVerb(a.Target.Kind, v)
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
