package main

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fakediscovery "k8s.io/client-go/discovery/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/kube/memapi"
	"rollscope/model/action"
	"rollscope/model/kind"
)

type targetCase struct {
	arg     string
	want    target
	refused string
}

// The console's argument names what opens first, in kubectl's spellings;
// anything else is one line saying what rollscope opens.
func TestConsoleTargetArgument(t *testing.T) {
	cases := []targetCase{
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
		{arg: "cronjob/db", refused: "rollscope opens deployments (deploy/NAME or NAME), ReplicationControllers (rc/NAME), StatefulSets (sts/NAME), DaemonSets (ds/NAME) and Rollouts (ro/NAME)"},
	}
	// A live cluster resolves the kind word through its discovery; the
	// embedded API answers it as a real server does.
	d := memapi.New(memapi.Options{}).Client().Discovery()
	live := func(args []string) (target, error) { return liveTarget(args, d) }
	for _, read := range []func([]string) (target, error){targetArg, live} {
		checkTargets(t, read, cases)
	}
}

// TestLiveTargetOfArgosRollout: a cluster whose discovery serves Argo's
// CRD opens `ro/NAME` (its own short name) as a Rollout; one without it
// refuses in one line that says what to install.
func TestLiveTargetOfArgosRollout(t *testing.T) {
	d := &fakediscovery.FakeDiscovery{Fake: &k8stesting.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "argoproj.io/v1alpha1",
		APIResources: []metav1.APIResource{{Name: "rollouts", SingularName: "rollout", Namespaced: true, Kind: "Rollout", ShortNames: []string{"ro"}, Verbs: metav1.Verbs{"get", "list", "watch"}}},
	}}}}
	got, err := liveTarget([]string{"ro/web"}, d)
	if err != nil || got != (target{workload: "web", workloadKind: kind.Rollout}) {
		t.Errorf("ro/web: %+v, %v; want the Rollout web", got, err)
	}
	without := &fakediscovery.FakeDiscovery{Fake: &k8stesting.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "apps/v1",
		APIResources: []metav1.APIResource{{Name: "deployments", SingularName: "deployment", Namespaced: true, Kind: "Deployment", ShortNames: []string{"deploy"}, Verbs: metav1.Verbs{"get", "list", "watch"}}},
	}}}}
	_, err = liveTarget([]string{"ro/web"}, without)
	want := `"ro/web": the cluster serves no Argo Rollouts (rollouts.argoproj.io): install Argo Rollouts`
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("ro/web without the CRD: %v; want one line starting %q", err, want)
	}
}

func checkTargets(t *testing.T, read func([]string) (target, error), cases []targetCase) {
	t.Helper()
	for _, tc := range cases {
		got, err := read([]string{tc.arg})
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
	if got, err := read(nil); err != nil || got != (target{}) {
		t.Errorf("no argument: got %+v, %v; want the first deployment", got, err)
	}
}
