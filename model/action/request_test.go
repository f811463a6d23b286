package action

import (
	"testing"
	"time"

	"rollscope/model/kind"
)

// The confirmation shows these commands so the operator knows exactly what
// will be sent: each must be the kubectl command that sends the same.
func TestKubectlIsTheCommandThatSendsTheSame(t *testing.T) {
	grace := int64(30)
	for _, tc := range []struct {
		r    Request
		want string
	}{
		{Request{Action: SetImage, Namespace: "shop", Name: "web", Container: "app", Image: "web:v2"},
			"kubectl -n shop set image deployment/web app=web:v2"},
		{Request{Action: SetEnv, Name: "web", Container: "app", Env: "MODE-"}, "kubectl set env deployment/web -c app MODE-"},
		{Request{Action: Scale, Name: "web", Replicas: 5}, "kubectl scale deployment/web --replicas=5"},
		{Request{Action: Undo, Name: "web", Revision: 2, ResumeFirst: true},
			"kubectl rollout resume deployment/web && kubectl rollout undo deployment/web --to-revision=2"},
		{Request{Action: Cordon, Nodes: []string{"a", "b"}}, "kubectl cordon a b"},
		{Request{Action: Drain, Nodes: []string{"a"}, Drain: DrainOptions{IgnoreDaemonSets: true, GracePeriodSeconds: &grace, Timeout: time.Minute}},
			"kubectl drain a --ignore-daemonsets --grace-period=30 --timeout=1m0s"},
		// The kinds' verbs: sts-*, ds-*.
		{Request{Action: "sts-set-image", Namespace: "shop", Name: "db", Container: "db", Image: "db:2"},
			"kubectl -n shop set image statefulset/db db=db:2"},
		{Request{Action: "ds-set-env", Name: "agent", Container: "agent", Env: "MODE=x"}, "kubectl set env daemonset/agent -c agent MODE=x"},
		{Request{Action: "ds-restart", Name: "agent"}, "kubectl rollout restart daemonset/agent"},
		{Request{Action: "ds-undo", Name: "agent", Revision: 3}, "kubectl rollout undo daemonset/agent --to-revision=3"},
		{Request{Action: "sts-scale", Name: "db", Replicas: 4}, "kubectl scale statefulset/db --replicas=4"},
		{Request{Action: "sts-partition", Name: "db", Partition: 2},
			`kubectl patch statefulset/db -p '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":2}}}}'`},
	} {
		if got := tc.r.Kubectl(); got != tc.want {
			t.Errorf("%s: Kubectl() = %q, want %q", tc.r.Action, got, tc.want)
		}
	}
}

func TestEnvChangeReadsKubectlSyntax(t *testing.T) {
	for _, tc := range []struct {
		env           string
		name, value   string
		remove, fails bool
	}{
		{env: "A=1", name: "A", value: "1"},
		{env: "A=", name: "A"},
		{env: "A-", name: "A", remove: true},
		{env: "A=x-", name: "A", value: "x-"},
		{env: "A", fails: true},
	} {
		n, v, rm, err := Request{Env: tc.env}.EnvChange()
		if (err != nil) != tc.fails || n != tc.name || v != tc.value || rm != tc.remove {
			t.Errorf("EnvChange(%q) = %q, %q, %v, %v", tc.env, n, v, rm, err)
		}
	}
}

// Every action has a spec: keys, help and the permissions it needs, or the
// console could not derive its key, help line or access check.
func TestEverySpecIsComplete(t *testing.T) {
	withRollouts(t)
	seen := map[Name]bool{}
	for _, s := range Specs() {
		if seen[s.Name] {
			t.Errorf("%s is in the table twice", s.Name)
		}
		seen[s.Name] = true
		// Every action writes, but the pod views, which only read.
		if len(s.Keys) == 0 || s.Help == "" || s.Group == "" || s.On == "" || len(s.Needs) == 0 || s.Writes == (s.On == OnPod) {
			t.Errorf("%s: incomplete spec %+v", s.Name, s)
		}
		// A Rollout's confirmations all say, in the forecast's place, that
		// there is none yet.
		if s.Forecast && !s.StartsRollout && s.Verb != kind.Scale && !s.Argo {
			t.Errorf("%s forecasts a rollout it does not start", s.Name)
		}
		for _, p := range s.Needs {
			if (s.On == OnNode || s.On == OnNodeGroup) != p.ClusterWide {
				t.Errorf("%s: %s must be asked cluster-wide exactly when the action is on nodes", s.Name, p)
			}
		}
	}
	if got := Of(OnReplicationController); len(got) != 2 || got[0] != RCUpdate {
		t.Errorf("Of(rc) = %v", got)
	}
	// A kind's actions are its entry's verbs, named by its short name.
	for _, e := range kind.All() {
		for _, v := range e.Verbs {
			if n, ok := OfVerb(e.Kind, v); !ok || n != Name(e.Short+"-"+string(v)) || (Request{Action: n}).Summary() == string(n) {
				t.Errorf("OfVerb(%s, %s) = %q, %v", e.Kind, v, n, ok)
			}
		}
	}
	if n, ok := OfVerb(OnDaemonSet, kind.Partition); ok {
		t.Errorf("OfVerb(daemonset, partition) = %q, want none: the entry does not list it", n)
	}
}
