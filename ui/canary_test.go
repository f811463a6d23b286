package ui

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/argo"
	"rollscope/model/cluster"
)

// finishedRollout is the fixture's frontend with its rollout of revision 3
// finished: where a canary can start.
func finishedRollout() *fakeSource {
	src := midRollout()
	v := src.rollouts["shop/frontend"]
	v.Done, v.Status = true, `deployment "frontend" successfully rolled out`
	v.Progressing = cluster.Condition{Status: "True", Reason: "NewReplicaSetAvailable"}
	v.Surge, v.Unavailable = model.Headroom{Used: 10, Limit: 13}, model.Headroom{Used: 0, Limit: 2}
	src.rollouts["shop/frontend"] = v
	return src
}

// heldCanary is frontend holding step 2 of a canary to nginx:1.29: the
// view shows the deployment's own settings and the canary line.
func heldCanary() *fakeSource {
	src := finishedRollout()
	v := src.rollouts["shop/frontend"]
	v.Done, v.Status = false, `Waiting for deployment "frontend" rollout to finish: 3 out of 10 new replicas have been updated...`
	plan, _ := cluster.CanaryPlanForView(src.rollouts["shop/frontend"], "set image nginx=nginx:1.29", []string{"1", "25%"}, nil, "")
	v.Canary = &cluster.CanaryView{Step: 2, Steps: 3, Phase: model.CanaryHolding, Pods: 3, Want: 3, Replicas: 10, Revision: 4,
		Hold: "pause", Plan: plan, Gates: model.CanaryGates{Healthy: true, Since: t0.Add(-72 * time.Second), Ready: 3, Want: 3}}
	src.rollouts["shop/frontend"] = v
	return src
}

// K plans a canary: the change, the steps, their hold and onFailure, then
// a confirmation with every request and the forecast; y sends one request.
func TestCanaryDialogPlansAndSendsOneRequest(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, finishedRollout(), nil)
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = run(m, press("K"), ctrlU)
	m = run(m, typed("nginx:1.29")...)
	m = run(m, press("enter"))
	if s := plain(m); !strings.Contains(s, "> 1, 25%, 50%") || !strings.Contains(s, "steps: pods or % of 10 replicas") {
		t.Fatalf("the steps do not start from a plan to edit:\n%s", s)
	}
	m = run(m, press("enter"), press("enter"), press("enter"), press("enter"))
	checkFits(t, m.Render(), 120, 40)
	compareGolden(t, "dialog-canary-confirm-120x40", ansi.Strip(m.Render())+"\n")
	if len(acts.sent) != 0 {
		t.Fatalf("the plan sent %+v before y", acts.sent)
	}
	m = run(m, press("y"))
	want := action.Request{Action: action.Canary, Namespace: "shop", Name: "frontend", Container: "nginx", Image: "nginx:1.29",
		Canary: action.CanarySettings{Steps: []string{"1", "25%", "50%"}, Holds: []string{"pause"}, OnFailure: "pause"}}
	if len(acts.sent) != 1 || !reflect.DeepEqual(acts.sent[0], want) {
		t.Errorf("sent %+v, want %+v", acts.sent, want)
	}
}

// Steps the deployment cannot hold are refused under the field.
func TestCanaryDialogRefusesStepsItCannotHold(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, finishedRollout(), nil)
	m = run(m, press("K"), ctrlU)
	m = run(m, typed("nginx:1.29")...)
	m = run(m, press("enter"), ctrlU)
	m = run(m, typed("1, 12")...)
	m = run(m, press("enter"))
	if s := plain(m); !strings.Contains(s, "step 12 is 12 pods, more than the deployment's 10 replicas") {
		t.Errorf("no refusal:\n%s", s)
	}
}

// A canary cannot start mid-rollout, and there is nothing to promote
// without one: each says so in the footer and opens nothing.
func TestCanaryKeysSayWhyTheyDoNothing(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, midRollout(), nil)
	m = run(m, press("K"))
	if s := plain(m); !strings.Contains(s, "canary: deployment/frontend is still rolling out") {
		t.Errorf("K mid-rollout:\n%s", s)
	}
	m = run(m, press("P"))
	if s := plain(m); !strings.Contains(s, "promote: deployment/frontend runs no canary") {
		t.Errorf("P without a canary:\n%s", s)
	}
	if acts.inspected != 0 || len(acts.sent) != 0 {
		t.Errorf("refused keys read %d times and sent %v", acts.inspected, acts.sent)
	}
}

// While a step holds, the header has the canary's line and P promotes from
// the step the operator sees.
func TestCanaryHeaderAndPromote(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, heldCanary(), nil)
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	checkFits(t, m.Render(), 120, 30)
	compareGolden(t, "canary-held-120x30", ansi.Strip(m.Render())+"\n")
	m = run(m, press("P"))
	if s := plain(m); !strings.Contains(s, "to 100%: puts back the deployment's own strategy") {
		t.Fatalf("promote from the step before the last:\n%s", s)
	}
	m = run(m, press("y"))
	if len(acts.sent) != 1 || acts.sent[0].Action != action.Promote || acts.sent[0].Canary.FromStep != 2 {
		t.Errorf("sent %+v, want one promote from step 2", acts.sent)
	}
}

// planGated types a canary on frontend with its metric gates from
// AnalysisTemplate error-rate, up to the confirmation.
func planGated(t *testing.T, acts *fakeActions) Model {
	m := newActionModel(t, acts, finishedRollout(), nil)
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 40})
	m = run(m, press("K"), ctrlU)
	m = run(m, typed("nginx:1.29")...)
	m = run(m, press("enter"), press("enter"), press("enter"), press("enter"))
	if s := plain(m); !strings.Contains(s, "metric gates: AnalysisTemplates whose metrics judge each step") {
		t.Fatalf("no question for the metric gates:\n%s", s)
	}
	return run(m, append(typed("error-rate"), press("enter"))...)
}

// The confirmation of a gated canary shows each gate's query and what it
// answers now, before anything is sent; y sends the templates with it.
func TestCanaryDialogShowsEachGateBeforeSending(t *testing.T) {
	acts := oneContainer()
	acts.gates = []action.GateReading{{Metric: "error-rate", Template: "error-rate", Query: `sum(rate(errors{hash="abc"}[1m]))`,
		Value: "[0.012]", Phase: argo.AnalysisPhaseSuccessful, Schedule: "every 10s, 3 measurements once the step's pods are ready"}}
	m := planGated(t, acts)
	s := plain(m)
	if !strings.Contains(s, `gate error-rate (error-rate): sum(rate(errors{hash="abc"}[1m])) = [0.012] now → Successful; every 10s, 3 measurements once the step's pods are ready`) {
		t.Fatalf("the confirmation does not show the gate's query and value:\n%s", s)
	}
	if len(acts.sent) != 0 {
		t.Fatalf("sent %+v before y", acts.sent)
	}
	run(m, press("y"))
	if len(acts.sent) != 1 || !reflect.DeepEqual(acts.sent[0].Canary.Templates, []string{"error-rate"}) {
		t.Errorf("sent %+v, want the canary with its template", acts.sent)
	}
}

// A gate that cannot be read keeps the dialog at the question, with the
// provider's words, and sends nothing.
func TestCanaryDialogRefusesAGateItCannotRead(t *testing.T) {
	acts := oneContainer()
	acts.gatesErr = errors.New(`metric gate error-rate cannot be read: bad_data: invalid parameter "query": 1:9: parse error: unclosed left parenthesis — nothing was sent`)
	m := planGated(t, acts)
	s := plain(m)
	if !strings.Contains(s, "parse error: unclosed left parenthesis") || !strings.Contains(s, "metric gates: AnalysisTemplates") {
		t.Errorf("the unreadable gate is not refused at the question:\n%s", s)
	}
	run(m, press("y"))
	if len(acts.sent) != 0 {
		t.Errorf("sent %+v after a refused gate", acts.sent)
	}
}
