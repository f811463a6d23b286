package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
	"rollscope/ui/overlays/rcdialog"
	"rollscope/ui/pages/workload"
	"rollscope/ui/screen"
)

// rcFixture is the mid-rollout fixture with a ReplicationController web
// that may be in the middle of an update.
type rcFixture struct {
	*fakeSource
	views map[string]cluster.RCUpdateView
	// actions are the timeline lines the console added.
	actions []cluster.TimelineEntry
}

func (f *rcFixture) AddAction(_, _ string, e cluster.TimelineEntry) { f.actions = append(f.actions, e) }

func (f *rcFixture) RCUpdate(ns, name string) (cluster.RCUpdateView, bool) {
	v, ok := f.views[ns+"/"+name]
	return v, ok
}

// rcMidUpdate is web halfway from nginx:1.25 to nginx:1.27: web at 2, the
// next controller at 3 of which 2 ready, 4 desired.
func rcMidUpdate() cluster.RCUpdateView {
	return cluster.RCUpdateView{
		Namespace: "shop", Name: "web", Updating: true, Phase: model.RCPhaseRollout, Desired: 4, Original: 4,
		Limits: model.RCLimits{Desired: 4, MaxSurge: 1, MinAvailable: 4},
		Old: cluster.RCRow{Name: "web", Images: []string{"nginx:1.25"}, Desired: 2, Current: 2, Ready: 2, Available: 2,
			Annotations: []string{"next-controller-id=web-6b54f9ff4f", "original-replicas=4"},
			Pods:        podRows("web-", "nodes-0", t0, cluster.PodReady, cluster.PodReady)},
		Next: cluster.RCRow{Name: "web-6b54f9ff4f", Images: []string{"nginx:1.27"}, Desired: 3, Current: 3, Ready: 2, Available: 2,
			Annotations: []string{"desired-replicas=4", "rollscope.dev/rename-to=web", "update-source-id=web:1f0c"},
			Pods:        podRows("web-6b54f9ff4f-", "nodes-1", t0, cluster.PodReady, cluster.PodReady, cluster.PodNotReady)},
		Surge:       model.Headroom{Used: 5, Limit: 5},
		Unavailable: model.Headroom{Used: 0, Limit: 0},
		Events: []cluster.TimelineEntry{
			{Time: t0.Add(-time.Minute), Message: "Scaling web-6b54f9ff4f up to 3"},
			{Time: t0, Message: "Scaling web down to 2"},
		},
	}
}

// rcSettled is web alone on nginx:1.25.
func rcSettled() cluster.RCUpdateView {
	return cluster.RCUpdateView{Namespace: "shop", Name: "web", Phase: model.RCPhaseDone, Desired: 4,
		Old:   cluster.RCRow{Name: "web", Images: []string{"nginx:1.25"}, Desired: 4, Current: 4, Ready: 4, Available: 4, Pods: podRows("web-", "nodes-0", t0, cluster.PodReady, cluster.PodReady, cluster.PodReady, cluster.PodReady)},
		Surge: model.Headroom{Used: 4, Limit: 5}}
}

func newRCFixture(v cluster.RCUpdateView) *rcFixture {
	return &rcFixture{fakeSource: midRollout(), views: map[string]cluster.RCUpdateView{"shop/web": v}}
}

// fakeRCActions records what the view asks for.
type fakeRCActions struct {
	*fakeActions
	planned  []action.RCUpdateInput
	started  []model.RCUpdateRequest
	aborted  []string
	planErr  error
	startErr error
}

func (f *fakeRCActions) PlanRCUpdate(_ context.Context, _ string, in action.RCUpdateInput) (action.RCPlan, error) {
	f.planned = append(f.planned, in)
	if f.planErr != nil {
		return action.RCPlan{}, f.planErr
	}
	return action.RCPlan{Request: model.RCUpdateRequest{Old: in.Name, Image: in.Image}, Next: "web-7d9c", Rename: true, Container: "nginx",
		FromImage: "nginx:1.25", Replicas: 4, Limits: model.RCLimits{Desired: 4, MaxSurge: 1, MinAvailable: 4}, UpdatePeriod: time.Minute}, nil
}

func (f *fakeRCActions) Send(ctx context.Context, r action.Request) (string, error) {
	switch r.Action {
	case action.RCUpdate:
		f.started = append(f.started, r.RCUpdate)
		return "asked", f.startErr
	case action.RCAbort:
		f.aborted = append(f.aborted, r.Name)
		return "asked", nil
	}
	return f.fakeActions.Send(ctx, r)
}

func newRCModel(t *testing.T, src Source, acts *fakeRCActions, w, h int) Model {
	t.Helper()
	opts := Options{Cluster: src, Namespace: "shop", Deployment: "frontend", Context: "kind-dev",
		Theme: themes.Dark(), Clock: fixedClock}
	if acts != nil {
		opts.Actions = acts
	}
	return send(New(opts), tea.WindowSizeMsg{Width: w, Height: h})
}

// rcRun sends msgs and runs the commands they return, as the runtime does.
func rcRun(m Model, msgs ...tea.Msg) Model {
	return runFeeding(m, func(msg tea.Msg) bool {
		switch msg.(type) {
		case rcdialog.Planned, screen.Sent, workload.Forecasted:
			return true
		}
		return false
	}, msgs...)
}

func openRC(name string) []tea.Msg {
	return append(append([]tea.Msg{press(":")}, typed("rc "+name)...), press("enter"))
}

func TestRCViewShowsBothControllers(t *testing.T) {
	for _, sz := range sizes {
		m := newRCModel(t, newRCFixture(rcMidUpdate()), nil, sz.w, sz.h)
		m = send(m, openRC("web")...)
		screen := plain(m)
		for _, want := range []string{"rc/web", "phase rollout", "old web", "next web-6b54f9ff4f", "nginx:1.27",
			"desired/current/ready 3/3/2", "original-replicas=4", "desired-replicas=4", "surge", "5/5 full", "●●◐",
			"Scaling web down to 2"} {
			if !strings.Contains(screen, want) {
				t.Errorf("%dx%d: the view lacks %q:\n%s", sz.w, sz.h, want, screen)
			}
		}
		checkFits(t, m.Render(), sz.w, sz.h)
		compareGolden(t, "rc-"+draw.Itoa(sz.w)+"x"+draw.Itoa(sz.h), ansi.Strip(m.Render())+"\n")
		if m = send(m, press("esc")); strings.Contains(plain(m), "phase rollout") {
			t.Error("esc did not go back to the deployment")
		}
	}
}

func TestRCQueryIsNotADeploymentSearch(t *testing.T) {
	m := newRCModel(t, newRCFixture(rcSettled()), nil, 120, 30)
	m = send(m, press(":"))
	m = send(m, typed("rc we")...)
	if s := plain(m); !strings.Contains(s, "enter opens the rolling update view of replicationcontroller we in shop") || strings.Contains(s, "no deployment matches") {
		t.Errorf("typing :rc NAME does not say what enter does:\n%s", s)
	}
}

func TestRCViewOfAnUnknownController(t *testing.T) {
	m := send(newRCModel(t, newRCFixture(rcSettled()), nil, 80, 24), openRC("nope")...)
	if !strings.Contains(plain(m), "replicationcontroller nope not found in namespace shop") {
		t.Errorf("no not-found message:\n%s", plain(m))
	}
}

func TestRCImageDialogPlansThenSendsOnY(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	m := newRCModel(t, newRCFixture(rcSettled()), acts, 80, 24)
	m = rcRun(m, openRC("web")...)
	m = rcRun(m, press("i"))
	// q is part of what is typed, not quit.
	m = rcRun(m, typed("quay.io/nginx:1.27")...)
	if !strings.Contains(plain(m), "image           quay.io/nginx:1.27█") {
		t.Fatalf("the dialog does not show the image typed:\n%s", plain(m))
	}
	m = rcRun(m, press("tab"), press("tab"), press("tab"), press("backspace"), press("backspace"))
	m = rcRun(m, typed("5s")...)
	m = rcRun(m, press("enter"))
	if len(acts.planned) != 1 || acts.planned[0] != (action.RCUpdateInput{Name: "web", Image: "quay.io/nginx:1.27", MaxSurge: "1", MaxUnavailable: "0", UpdatePeriod: "5s"}) {
		t.Fatalf("planned %+v", acts.planned)
	}
	screen := plain(m)
	for _, want := range []string{"send?", "nginx:1.25 → quay.io/nginx:1.27", "Create web-7d9c at 0 and grow it to 4 replicas", "at most 5 pods, at least 4 available", "renamed back to web"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the confirmation lacks %q:\n%s", want, screen)
		}
	}
	compareGolden(t, "rc-image-confirm-80x24", screen+"\n")
	if len(acts.started) != 0 {
		t.Fatal("sent before y")
	}
	m = rcRun(m, press("y"))
	if len(acts.started) != 1 || acts.started[0].Image != "quay.io/nginx:1.27" {
		t.Errorf("started %+v, want one update to quay.io/nginx:1.27", acts.started)
	}
	if !strings.Contains(plain(m), "✔ rolling update of rc/web to quay.io/nginx:1.27: asked") {
		t.Errorf("no confirmation in the footer:\n%s", plain(m))
	}
}

func TestRCImageDialogShowsTheRefusal(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer(), planErr: errors.New(`image "Nginx:1" is not a valid reference`)}
	m := newRCModel(t, newRCFixture(rcSettled()), acts, 80, 24)
	m = rcRun(m, openRC("web")...)
	m = rcRun(m, press("i"))
	m = rcRun(m, typed("Nginx:1")...)
	m = rcRun(m, press("enter"))
	if !strings.Contains(plain(m), `✖ image "Nginx:1" is not a valid reference`) {
		t.Errorf("refusal not shown:\n%s", plain(m))
	}
	if m = rcRun(m, press("y")); len(acts.started) != 0 {
		t.Errorf("y after a refusal sent %v", acts.started)
	}
	if m = rcRun(m, press("esc")); m.top().Typing() || len(acts.started) != 0 {
		t.Error("esc did not cancel the dialog")
	}
}

func TestRCAbort(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	m := newRCModel(t, newRCFixture(rcMidUpdate()), acts, 80, 24)
	m = rcRun(m, openRC("web")...)
	m = rcRun(m, press("i"))
	if !strings.Contains(plain(m), "already being updated") {
		t.Errorf("i during an update does not say so:\n%s", plain(m))
	}
	m = rcRun(m, press("x"))
	if !strings.Contains(strings.Join(strings.Fields(plain(m)), " "), "web grows back to 4 replicas (nginx:1.25), web-6b54f9ff4f shrinks to 0 and is deleted") {
		t.Errorf("the abort confirmation does not say what happens:\n%s", plain(m))
	}
	rcRun(m, press("y"))
	if len(acts.aborted) != 1 || acts.aborted[0] != "web" {
		t.Errorf("aborted %v, want web", acts.aborted)
	}
}

func TestRCAbortWithoutAnUpdateSaysWhatToDoInstead(t *testing.T) {
	for name, v := range map[string]cluster.RCUpdateView{
		"no update": rcSettled(),
		"no next controller": func() cluster.RCUpdateView {
			v := rcMidUpdate()
			v.Phase, v.Next = model.RCPhasePrepare, cluster.RCRow{Name: "web-6b54f9ff4f"}
			return v
		}(),
	} {
		acts := &fakeRCActions{fakeActions: oneContainer()}
		m := newRCModel(t, newRCFixture(v), acts, 120, 30)
		m = rcRun(m, openRC("web")...)
		m = rcRun(m, press("x"))
		screen := plain(m)
		rcRun(m, press("y"))
		if !strings.Contains(screen, "start a new rolling update with the old image") || len(acts.aborted) != 0 {
			t.Errorf("%s: x did not explain (aborted %v):\n%s", name, acts.aborted, screen)
		}
	}
}

func TestRCKeysOffWhenReadOnly(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	opts := Options{Cluster: newRCFixture(rcMidUpdate()), Namespace: "shop", Deployment: "frontend", Theme: themes.Dark(),
		Clock: fixedClock, Actions: acts, ReadOnly: true}
	m := send(New(opts), tea.WindowSizeMsg{Width: 80, Height: 24})
	m = rcRun(m, openRC("web")...)
	m = rcRun(m, press("x"), press("y"))
	if len(acts.aborted) != 0 || m.top().Typing() {
		t.Errorf("x worked with --read-only")
	}
}

func TestRCAbortWithYesSendsAtOnce(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	opts := Options{Cluster: newRCFixture(rcMidUpdate()), Namespace: "shop", Deployment: "frontend", Theme: themes.Dark(),
		Clock: fixedClock, Actions: acts, AssumeYes: true}
	m := send(New(opts), tea.WindowSizeMsg{Width: 80, Height: 24})
	m = rcRun(m, openRC("web")...)
	rcRun(m, press("x"))
	if len(acts.aborted) != 1 {
		t.Errorf("x with --yes sent %v, want the abort at once", acts.aborted)
	}
}

// `rollscope rc/web` opens the view straight away, the same view `:rc web`
// opens; esc goes to the deployments.
func TestRCViewOpensFirstWhenAsked(t *testing.T) {
	opts := Options{Cluster: newRCFixture(rcMidUpdate()), Namespace: "shop", RC: "web", Context: "kind-dev",
		Theme: themes.Dark(), Clock: fixedClock}
	m := send(New(opts), tea.WindowSizeMsg{Width: 120, Height: 30})
	opts.RC = ""
	viaKeys := send(New(opts), tea.WindowSizeMsg{Width: 120, Height: 30})
	viaKeys = send(viaKeys, openRC("web")...)
	if got, want := plain(m), plain(viaKeys); got != want {
		t.Errorf("Options.RC opened:\n%s\nwant what :rc web opens:\n%s", got, want)
	}
	if m = send(m, press("esc")); strings.Contains(plain(m), "phase rollout") {
		t.Error("esc did not leave the view")
	}
}

// An update and an abort go through the same runner as every other action:
// the footer says what was sent and the timeline keeps a line of it.
func TestRCRequestsAreOnTheTimeline(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	src := newRCFixture(rcMidUpdate())
	m := newRCModel(t, src, acts, 80, 24)
	m = rcRun(m, openRC("web")...)
	m = rcRun(m, press("x"), press("y"))
	if len(src.actions) != 1 || src.actions[0].Object != "replicationcontroller/web" || src.actions[0].Message != "abort of rc/web: asked" {
		t.Errorf("timeline got %+v, want one line for the abort of replicationcontroller/web", src.actions)
	}
	acts.startErr = errors.New("replicationcontroller web is being updated by someone else")
	src.views["shop/web"] = rcSettled()
	m = rcRun(m, cluster.Batch{}, press("i"))
	m = rcRun(m, typed("nginx:1.27")...)
	m = rcRun(m, press("enter"), press("y"))
	if last := src.actions[len(src.actions)-1]; len(src.actions) != 2 || !last.Warning ||
		last.Message != "rolling update of rc/web to nginx:1.27: failed — replicationcontroller web is being updated by someone else" {
		t.Errorf("timeline got %+v, want the failed update as a warning", src.actions)
	}
	if s := plain(m); !strings.Contains(s, "✖ rolling update") || !strings.Contains(s, "— replicationcontroller web is being updated by someone else") {
		t.Errorf("no failure in the footer:\n%s", plain(m))
	}
}

// The view's keys follow the ReplicationController permissions, not the
// deployment's: a denied rc-update says why and opens nothing, while a
// denied set image leaves i working in the view.
func TestRCKeysFollowTheirOwnPermissions(t *testing.T) {
	open := func(denied map[action.Name]string) Model {
		acts := &fakeRCActions{fakeActions: oneContainer()}
		opts := Options{Cluster: newRCFixture(rcSettled()), Namespace: "shop", Deployment: "frontend", Theme: themes.Dark(),
			Clock: fixedClock, Actions: acts, Denied: denied}
		m := send(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
		return rcRun(m, append(openRC("web"), press("i"))...)
	}
	m := open(map[action.Name]string{action.SetImage: "not allowed: patch deployments.apps", action.Abort: "not allowed: update deployments.apps"})
	if !m.top().Typing() {
		t.Errorf("a deployment denial turned the RC view's i off:\n%s", plain(m))
	}
	m = open(map[action.Name]string{action.RCUpdate: "not allowed: create replicationcontrollers"})
	if m.top().Typing() || !strings.Contains(plain(m), "rolling update (RC view): not allowed: create replicationcontrollers") {
		t.Errorf("a denied rc-update does not say why:\n%s", plain(m))
	}
}

func (f *fakeRCActions) PlanGates(context.Context, action.Request) ([]action.GateReading, error) {
	return nil, nil
}
