package fidelity

import (
	"fmt"
	"sort"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/engine/scenario"
)

// Scenario is a fidelity scenario: one Deployment and its scripted actions.
type Scenario struct {
	File       string
	Name       string
	Deployment *appsv1.Deployment
	Actions    []scenario.Action
}

// LoadScenario reads a scenario file and finds its one Deployment.
func LoadScenario(file string) (*Scenario, error) {
	sc, err := scenario.Load(file)
	if err != nil {
		return nil, fmt.Errorf("loading fidelity scenario: %w", err)
	}
	s := &Scenario{File: file, Name: sc.Name, Actions: append([]scenario.Action(nil), sc.Actions...)}
	for _, o := range sc.Objects {
		if d, ok := o.(*appsv1.Deployment); ok {
			if s.Deployment != nil {
				return nil, fmt.Errorf("%s: a fidelity scenario holds one Deployment, found %s and %s", file, s.Deployment.Name, d.Name)
			}
			s.Deployment = d
		}
	}
	if s.Deployment == nil {
		return nil, fmt.Errorf("%s: a fidelity scenario needs a Deployment to compare", file)
	}
	sort.SliceStable(s.Actions, func(i, j int) bool { return s.Actions[i].At < s.Actions[j].At })
	return s, nil
}

// withReplicas is the scenario's Deployment at another size, for resolving
// percentages of maxSurge and maxUnavailable as the controller does.
func (s *Scenario) withReplicas(n int32) *appsv1.Deployment {
	d := s.Deployment.DeepCopy()
	d.Spec.Replicas = &n
	return d
}

func (s *Scenario) recreate() bool {
	return s.Deployment.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType
}

// OneStepAtATime reports whether the strategy leaves the controller exactly
// one possible next step at every point, so that the sequence of
// ReplicaSet sizes is fixed whatever the timing: Recreate, or a rolling
// update that may only add one pod (maxSurge 1, maxUnavailable 0) or only
// remove one (0 and 1) — and one scripted action, the rollout itself, since
// a second one lands at a point that depends on timing.
func (s *Scenario) OneStepAtATime() bool {
	if len(s.Actions) > 1 {
		return false
	}
	if s.recreate() {
		return true
	}
	surge, unavailable := resolved(s.Deployment)
	return surge+unavailable == 1
}
