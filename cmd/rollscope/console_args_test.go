package main

import (
	"strings"
	"testing"

	"rollscope/model/action"
)

// The console's argument names what opens first, in kubectl's spellings;
// anything else is one line saying what rollscope opens.
func TestConsoleTargetArgument(t *testing.T) {
	cases := []struct {
		arg     string
		want    target
		refused string
	}{
		{arg: "frontend", want: target{deployment: "frontend"}},
		{arg: "deploy/frontend", want: target{deployment: "frontend"}},
		{arg: "deployments.apps/frontend", want: target{deployment: "frontend"}},
		{arg: "rc/web", want: target{rc: "web"}},
		{arg: "replicationcontroller/web", want: target{rc: "web"}},
		{arg: "rc/", refused: `"rc/" names no object: write rc/NAME`},
		{arg: "statefulset/db", want: target{workload: "db", workloadKind: action.OnStatefulSet}},
		{arg: "sts/db", want: target{workload: "db", workloadKind: action.OnStatefulSet}},
		{arg: "ds/node-agent", want: target{workload: "node-agent", workloadKind: action.OnDaemonSet}},
		{arg: "daemonsets.apps/node-agent", want: target{workload: "node-agent", workloadKind: action.OnDaemonSet}},
		{arg: "cronjob/db", refused: "rollscope opens deployments (deploy/NAME or NAME), ReplicationControllers (rc/NAME), StatefulSets (sts/NAME) and DaemonSets (ds/NAME)"},
	}
	for _, tc := range cases {
		got, err := targetArg([]string{tc.arg})
		if tc.refused != "" {
			if err == nil || !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("%s: got %+v, %v; want refused with %q", tc.arg, got, err, tc.refused)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v", tc.arg, got, err, tc.want)
		}
	}
	if got, err := targetArg(nil); err != nil || got != (target{}) {
		t.Errorf("no argument: got %+v, %v; want the first deployment", got, err)
	}
}
