package live

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/engine/scenario"
)

// refuseStatefulSets says why a live run cannot play a scenario with a
// StatefulSet: its runner follows neither StatefulSets nor their revisions,
// so the trace would lack them and the run could end before their rollouts
// do. Nil when the scenario has none.
func refuseStatefulSets(sc *scenario.Scenario) error {
	for _, o := range sc.Objects {
		if s, ok := o.(*appsv1.StatefulSet); ok {
			return fmt.Errorf("scenario %s declares StatefulSet %q: simulate --kubeconfig does not follow StatefulSets yet — run it on the embedded cluster (without --kubeconfig)", sc.Name, s.Name)
		}
	}
	return nil
}
