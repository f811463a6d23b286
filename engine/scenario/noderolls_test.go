package scenario_test

import (
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/drain"
	"rollscope/engine/noderoll"
	"rollscope/engine/scenario"
)

// rollNodes takes kops rolling-update's settings, mapped one to one onto
// noderoll.Options; nextNode continues a stepped roll as the console's n does.
func TestParseRollNodesOptionsAndNextNode(t *testing.T) {
	src := workload + `  - at: 30s
    rollNodes:
      group: nodes
      step: true
      maxSurge: 2
      maxUnavailable: 10%
      interval: 5s
      drainTimeout: 2m
      validationTimeout: 10m
  - {at: 2m, nextNode: nodes}
  - {at: 3m, nextNode: {group: nodes}}
  - {at: 4m, rollNodes: spare}
`
	sc, err := scenario.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	surge, unavailable := intstr.FromInt32(2), intstr.FromString("10%")
	want := []scenario.Action{
		{At: 30 * time.Second, Line: 27, Kind: "rollNodes", Group: "nodes", Roll: noderoll.Options{
			Step: true, MaxSurge: &surge, MaxUnavailable: &unavailable,
			Interval: drain.Duration(5 * time.Second), DrainTimeout: drain.Duration(2 * time.Minute), ValidationTimeout: drain.Duration(10 * time.Minute),
		}},
		{At: 2 * time.Minute, Line: 36, Kind: "nextNode", Group: "nodes"},
		{At: 3 * time.Minute, Line: 37, Kind: "nextNode", Group: "nodes"},
		{At: 4 * time.Minute, Line: 38, Kind: "rollNodes", Group: "spare"},
	}
	if !reflect.DeepEqual(sc.Actions, want) {
		t.Errorf("actions\n got %+v\nwant %+v", sc.Actions, want)
	}
}

// A roll that leaves out maxSurge or maxUnavailable takes the group's, so
// maxUnavailable 0 is fine on a group that surges.
func TestRollNodesZeroUnavailableWithTheGroupsSurge(t *testing.T) {
	src := `name: t
nodeGroups:
  - {name: nodes, size: 3, maxSurge: 1}
actions:
  - {at: 5s, rollNodes: {group: nodes, maxUnavailable: 0}}
`
	if _, err := scenario.Parse("t.yaml", []byte(src)); err != nil {
		t.Errorf("a zero maxUnavailable on a group with maxSurge 1 was refused: %v", err)
	}
}
