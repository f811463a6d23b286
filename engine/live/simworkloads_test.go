package live

import (
	"strings"
	"testing"

	"rollscope/engine/scenario"
)

func TestALiveRunRefusesStatefulSetsBeforeMakingAnything(t *testing.T) {
	sc, err := scenario.Load("stateful")
	if err != nil {
		t.Fatal(err)
	}
	err = refuseStatefulSets(sc)
	if err == nil || !strings.Contains(err.Error(), `declares StatefulSet "db": simulate --kubeconfig does not follow StatefulSets yet`) {
		t.Errorf("got %v", err)
	}
	if sc, _ = scenario.Load("frontend"); refuseStatefulSets(sc) != nil {
		t.Error("a scenario without StatefulSets was refused")
	}
}
