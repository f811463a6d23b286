package picker

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/ui/screen"
)

// deployments is a Source with two deployments.
type deployments struct{ screen.Source }

func (deployments) Deployments() []cluster.DeploymentSummary {
	return []cluster.DeploymentSummary{{Namespace: "shop", Name: "frontend"}, {Namespace: "shop", Name: "api"}}
}

// enter types query at the `:` prompt and presses enter.
func enter(t *testing.T, query string) (*screen.Screen, screen.Target, bool) {
	t.Helper()
	s := &screen.Screen{Src: deployments{}, Namespace: "shop"}
	p := New(s, ':')
	for _, r := range query {
		p.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	next, ok := s.Next()
	return s, next, ok
}

// The `:` prompt reads kinds as kind.Parse does: every kubectl spelling,
// with `/` or a space.
func TestPromptOpensEveryKubectlSpelling(t *testing.T) {
	for query, want := range map[string]screen.Target{
		"sts db":                     {Namespace: "shop", Workload: "db", WorkloadKind: kind.StatefulSet},
		"statefulsets/db":            {Namespace: "shop", Workload: "db", WorkloadKind: kind.StatefulSet},
		"STS db":                     {Namespace: "shop", Workload: "db", WorkloadKind: kind.StatefulSet},
		"daemonset.apps/agent":       {Namespace: "shop", Workload: "agent", WorkloadKind: kind.DaemonSet},
		"ds agent":                   {Namespace: "shop", Workload: "agent", WorkloadKind: kind.DaemonSet},
		"rc web":                     {Namespace: "shop", RC: "web"},
		"replicationcontrollers/web": {Namespace: "shop", RC: "web"},
		"deploy api":                 {Namespace: "shop", Deployment: "api"},
		"deployments/api":            {Namespace: "shop", Deployment: "api"},
		"api":                        {Namespace: "shop", Deployment: "api"},
		"deploy":                     {Namespace: "shop", Deployment: "frontend"},
	} {
		if _, got, ok := enter(t, query); !ok || got != want {
			t.Errorf(":%s opened %+v, %v; want %+v", query, got, ok, want)
		}
	}
}

func TestPromptAsksForTheName(t *testing.T) {
	for query, toast := range map[string]string{
		"sts/": "give the statefulset's name: :sts NAME",
		"rc/":  "give the ReplicationController's name: :rc NAME",
	} {
		if s, _, ok := enter(t, query); ok || s.Toast != toast {
			t.Errorf(":%s: went %v, toast %q; want %q", query, ok, s.Toast, toast)
		}
	}
}
