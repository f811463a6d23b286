package workload

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/argo"
	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

// argoSource is the fixture with one Rollout, shop/checkout, as the view
// reads it.
type argoSource struct {
	*uitest.Source
	ro cluster.ArgoRolloutView
}

func (a argoSource) ArgoRollout(ns, name string, _ time.Time) (cluster.ArgoRolloutView, bool) {
	return a.ro, ns == a.ro.Namespace && name == a.ro.Name
}

// The states of a canary at step 2/4, as the cluster's view says them.
var (
	pausedAtStep = map[kind.Verb]string{
		kind.Retry:  "rollout/checkout is not aborted: there is nothing to retry",
		kind.Resume: "rollout/checkout is not paused by hand: it waits at a pause of its own (CanaryPauseStep) — promote it to move on",
	}
	aborted = map[kind.Verb]string{
		kind.Promote: "rollout/checkout is aborted: a promote would only move its step index under the abort — retry it to go through the steps again, or promote it fully to go straight to the new template",
		kind.Abort:   "rollout/checkout is already aborted",
		kind.Resume:  "rollout/checkout is not paused",
	}
)

func argoPage(t *testing.T, refused map[kind.Verb]string, acts screen.Actions, gate func(s *screen.Screen)) (screen.Page, *uitest.Base, *screen.Screen) {
	t.Helper()
	return argoPageOf(t, func(*cluster.ArgoRolloutView) {}, refused, acts, gate)
}

func argoPageOf(t *testing.T, edit func(*cluster.ArgoRolloutView), refused map[kind.Verb]string, acts screen.Actions, gate func(s *screen.Screen)) (screen.Page, *uitest.Base, *screen.Screen) {
	t.Helper()
	ro := cluster.ArgoRolloutView{Namespace: "shop", Name: "checkout", Strategy: "canary", Status: "Paused - CanaryPauseStep",
		Desired: 4, Step: 1, Refused: refused,
		Steps: []cluster.ArgoStep{{Text: "setWeight 25", Done: true}, {Text: "pause (until promoted)", Current: true}, {Text: "setWeight 50"}, {Text: "pause 10m"}}}
	edit(&ro)
	s := uitest.NewScreen(argoSource{Source: midRollout(), ro: ro}, acts)
	if gate != nil {
		gate(s)
	}
	b := &uitest.Base{}
	p := NewPage(s, b, kind.Rollout, "shop", "checkout")
	p.SetSize(160, 40)
	return p, b, s
}

// offered is the footer's enabled keys.
func offered(p screen.Page) map[string]bool {
	out := map[string]bool{}
	for _, b := range p.KeyMap().ShortHelp() {
		if b.Enabled() {
			out[b.Help().Key] = true
		}
	}
	return out
}

// Each Argo key is offered only in the states where it can work: the
// footer leaves a refused key out, pressing it says the state's reason and
// sends nothing, and the keys the state allows open their confirmation.
func TestArgoKeysFollowTheRolloutsState(t *testing.T) {
	for _, c := range []struct {
		name    string
		refused map[kind.Verb]string
		on, off []string // keys
	}{
		{"paused at a step", pausedAtStep, []string{"P", "A", "x", "p", "i", "R", "u", "s"}, []string{"t", "r"}},
		{"aborted", aborted, []string{"A", "t", "p", "i", "R", "u", "s"}, []string{"P", "x", "r"}},
	} {
		keyOf := map[string]action.Name{}
		for _, n := range action.Of(kind.Rollout) {
			s, _ := action.Lookup(n)
			keyOf[s.Keys[0]] = n
		}
		p, b, s := argoPage(t, c.refused, &uitest.Actions{}, nil)
		got := offered(p)
		// The state is the Rollout's: the console's key map, which other
		// pages read, keeps every key on.
		for _, k := range c.off {
			if !s.Keys.Action(keyOf[k]).Enabled() || s.Keys.DisabledReason(string(keyOf[k])) != "" {
				t.Errorf("%s: %s is turned off in the console's key map", c.name, k)
			}
		}
		for _, k := range c.on {
			if !got[k] {
				t.Errorf("%s: %s is not offered", c.name, k)
			}
		}
		for _, k := range c.off {
			if got[k] {
				t.Errorf("%s: %s is offered", c.name, k)
			}
		}
		if out := uitest.Plain(p.View()); !strings.Contains(out, "not now: "+strings.Join(c.off, " ")) {
			t.Errorf("%s: the page does not name the keys that are off (%v):\n%s", c.name, c.off, out)
		}
		for _, k := range c.off {
			acts := &uitest.Actions{}
			p, _, s := argoPage(t, c.refused, acts, nil)
			p.Update(uitest.Press(k))
			spec, _ := action.Lookup(keyOf[k])
			if want := c.refused[spec.Verb]; !strings.Contains(s.Toast, want) || p.Writes() || len(acts.Sent) != 0 {
				t.Errorf("%s: %s says %q (want %q), question open %v, sent %v", c.name, k, s.Toast, want, p.Writes(), acts.Sent)
			}
		}
		// A key the state allows asks to confirm, naming the plugin's
		// command.
		allowed := map[string]string{"paused at a step": "P", "aborted": "t"}[c.name]
		p.Update(uitest.Press(allowed))
		if out := uitest.Plain(p.View()); !p.Writes() || !strings.Contains(out, "kubectl argo rollouts") {
			t.Errorf("%s: %s opened no confirmation:\n%s", c.name, allowed, out)
		}
		if len(b.Keys) != 0 {
			t.Errorf("%s: keys reached the page below: %q", c.name, b.Keys)
		}
	}
}

// --read-only and the cluster's RBAC disable keys before the state does:
// their reason is the one said, whatever the Rollout's state.
func TestArgoKeysKeepReadOnlyAndRBAC(t *testing.T) {
	p, _, s := argoPage(t, pausedAtStep, &uitest.Actions{}, func(s *screen.Screen) { s.Keys.Gate(true, true, nil) })
	if got := offered(p); got["P"] || got["A"] || got["i"] {
		t.Errorf("read-only offers %v", got)
	}
	p.Update(uitest.Press("P"))
	if !strings.Contains(s.Toast, "read-only") || p.Writes() {
		t.Errorf("read-only P says %q", s.Toast)
	}
	denied := map[action.Name]string{"ro-promote": "forbidden: cannot patch rollouts/status"}
	p, _, s = argoPage(t, pausedAtStep, &uitest.Actions{}, func(s *screen.Screen) { s.Keys.Gate(true, false, denied) })
	if got := offered(p); got["P"] || !got["A"] {
		t.Errorf("RBAC: offered %v, want no P and A", got)
	}
	p.Update(uitest.Press("P"))
	if !strings.Contains(s.Toast, "cannot patch rollouts/status") || p.Writes() {
		t.Errorf("RBAC P says %q", s.Toast)
	}
	// A key the state refuses and RBAC denies says RBAC's reason: fixing
	// the state would not let the operator send it.
	denied = map[action.Name]string{"ro-retry": "forbidden: cannot patch rollouts/status"}
	p, _, s = argoPage(t, pausedAtStep, &uitest.Actions{}, func(s *screen.Screen) { s.Keys.Gate(true, false, denied) })
	p.Update(uitest.Press("t"))
	if !strings.Contains(s.Toast, "cannot patch rollouts/status") {
		t.Errorf("denied and refused t says %q", s.Toast)
	}
}

// The steps list marks the current step and the done ones with a glyph,
// not only a colour, and says how the current one stands.
func TestArgoStepsList(t *testing.T) {
	p, _, _ := argoPage(t, pausedAtStep, nil, nil)
	out := uitest.Plain(p.View())
	for _, want := range []string{"steps  ✓ done · ▸ now", "  ✓  1 setWeight 25", "  ▸  2 pause (until promoted)", "     3 setWeight 50"} {
		if !strings.Contains(out, want) {
			t.Errorf("the steps list lacks %q:\n%s", want, out)
		}
	}
}

// Sections give way, the lowest first, to their short forms until they
// fit; one that cannot shorten stays whole.
func TestFitSections(t *testing.T) {
	a := argoSection{full: []string{"a1", "a2", "a3"}, short: []string{"a"}, gives: 2}
	b := argoSection{full: []string{"b1", "b2", "b3"}, short: []string{"b"}, gives: 1}
	c := argoSection{full: []string{"c1", "c2"}, short: []string{"c1", "c2"}, gives: 0}
	for _, tc := range []struct {
		room int
		want string
	}{
		{8, "a1 a2 a3 b1 b2 b3 c1 c2"},
		{7, "a1 a2 a3 b c1 c2"},
		{6, "a1 a2 a3 b c1 c2"},
		{5, "a b c1 c2"},
		{1, "a b c1 c2"},
	} {
		if got := strings.Join(fitSections([]argoSection{a, b, c}, tc.room), " "); got != tc.want {
			t.Errorf("room %d: %q, want %q", tc.room, got, tc.want)
		}
	}
}

// The analysis shows the runs the Rollout runs now: each metric's last
// values against its condition, the limit it crossed and its counts; an
// older run is only counted. Narrow, the last value and the verdict stay.
func TestArgoAnalysisSaysWhyItFailed(t *testing.T) {
	failed := func(ro *cluster.ArgoRolloutView) {
		ro.Analysis = []cluster.AnalysisRunView{
			{Name: "checkout-2-3", Phase: "Failed", For: "step 3", Current: true, Metrics: []cluster.MetricView{{
				Name: "error-rate", Phase: "Failed", SuccessCondition: "result < 0.05", Last: []string{"0.02", "0.42"}, Count: 2, Successful: 1,
				Failed: 1, Limits: argo.Limits{ConsecutiveError: 4}, Crossed: "failed 1 > limit 0 → Failed"}}},
			{Name: "checkout-1-3", Phase: "Successful", For: "step 3", Metrics: []cluster.MetricView{{Name: "old-metric"}}},
		}
	}
	p, _, _ := argoPageOf(t, failed, nil, nil, nil)
	out := uitest.Plain(p.View())
	for _, want := range []string{"analysis checkout-2-3 · step 3 Failed",
		"  ✗ error-rate 0.02, 0.42 · success: result < 0.05 · failed 1 > limit 0 → Failed",
		"failed 1 of limit 0 · inconclusive 0 of 0 · errors 0 (0 in a row of 4) · successful 1 of 2 measured",
		"and 1 older AnalysisRun"} {
		if !strings.Contains(out, want) {
			t.Errorf("the analysis lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "old-metric") {
		t.Errorf("an older run's metrics are shown:\n%s", out)
	}
	p.SetSize(50, 30)
	if out := uitest.Plain(p.View()); !strings.Contains(out, "  ✗ error-rate 0.42 · failed 1 > limit 0 → Failed") {
		t.Errorf("narrow, the verdict or the last value is gone:\n%s", out)
	}
}

// The headroom bars are the view's: a canary's surge, blue/green's
// preview set, each beside the unavailable budget.
func TestArgoHeadroomBars(t *testing.T) {
	for _, c := range []struct{ label, want string }{{"surge", "surge "}, {"preview", "preview "}} {
		p, _, _ := argoPageOf(t, func(ro *cluster.ArgoRolloutView) {
			ro.SurgeLabel, ro.Surge, ro.Unavailable = c.label, model.Headroom{Used: 1, Limit: 3}, model.Headroom{Used: 2, Limit: 2}
		}, nil, nil, nil)
		out := uitest.Plain(p.View())
		if !strings.Contains(out, c.want) || !strings.Contains(out, " 1/3") || !strings.Contains(out, "unavailable ") || !strings.Contains(out, " 2/2 full") {
			t.Errorf("%s: the bars lack the budgets:\n%s", c.label, out)
		}
	}
}

// The history lists the revisions of the Rollout's ReplicaSets with the
// undo diff of the one under the cursor, and u sends ro-undo to the
// revision chosen there, only after y.
func TestArgoUndoToAChosenRevision(t *testing.T) {
	diff := func(from, to string) []cluster.DiffLine {
		return []cluster.DiffLine{{Op: ' ', Text: "containers:"}, {Op: '-', Text: "  image: shop/checkout:" + from}, {Op: '+', Text: "  image: shop/checkout:" + to}}
	}
	history := func(ro *cluster.ArgoRolloutView) {
		ro.History = []cluster.WorkloadRevision{
			{Revision: 1, Name: "checkout-1", Images: []string{"web=shop/checkout:v1"}, Diff: diff("v3", "v1")},
			{Revision: 2, Name: "checkout-2", Images: []string{"web=shop/checkout:v2"}, Diff: diff("v3", "v2")},
			{Revision: 3, Name: "checkout-3", Images: []string{"web=shop/checkout:v3"}, Current: true},
		}
	}
	acts := &uitest.Actions{}
	p, _, _ := argoPageOf(t, history, pausedAtStep, acts, nil)
	out := uitest.Plain(p.View())
	for _, want := range []string{"history (ReplicaSets' rollout.argoproj.io/revision)", "▸ 2    web=shop/checkout:v2", "3    web=shop/checkout:v3  (current)",
		"current → revision 2 (" + cluster.UndoDiffLegend + "):", "  - " + "  image: shop/checkout:v3", "  + " + "  image: shop/checkout:v2"} {
		if !strings.Contains(out, want) {
			t.Errorf("the history lacks %q:\n%s", want, out)
		}
	}
	p.Update(uitest.Press("up"))
	if out := uitest.Plain(p.View()); !strings.Contains(out, "▸ 1    web=shop/checkout:v1") || !strings.Contains(out, "  + "+"  image: shop/checkout:v1") {
		t.Errorf("up did not choose revision 1 and its diff:\n%s", out)
	}
	p.Update(uitest.Press("u"))
	if out := uitest.Plain(p.View()); !p.Writes() || !strings.Contains(out, "kubectl argo rollouts undo checkout --to-revision=1 -n shop") || len(acts.Sent) != 0 {
		t.Fatalf("u: question %v, sent %v:\n%s", p.Writes(), acts.Sent, out)
	}
	_, cmd := p.Update(uitest.Press("y"))
	uitest.Run(cmd)
	if len(acts.Sent) != 1 || acts.Sent[0].Action != "ro-undo" || acts.Sent[0].Revision != 1 || acts.Sent[0].Name != "checkout" {
		t.Fatalf("sent %+v, want one ro-undo of checkout to revision 1", acts.Sent)
	}
}

// Mid-update the history names the revisions as the ReplicaSets above do,
// canary and stable (blue/green: preview), and the diff reads from the
// canary's: it marked the canary's "(current)" while the pods serving most
// traffic ran the stable one. Once the canary is stable it is "current".
func TestArgoHistoryNamesTheCanaryAndTheStable(t *testing.T) {
	for _, c := range []struct {
		strategy, stable, want1, want2, from string
	}{
		{"canary", "h1", "(stable)", "(canary)", "canary"},
		{"blueGreen", "h1", "(stable)", "(preview)", "preview"},
		{"canary", "h2", "", "(current)", "current"},
	} {
		p, _, _ := argoPageOf(t, func(ro *cluster.ArgoRolloutView) {
			ro.Strategy, ro.StableHash, ro.CurrentHash = c.strategy, c.stable, "h2"
			ro.ReplicaSets = []cluster.ReplicaSetRow{{Name: "checkout-h2", Hash: "h2", Revision: 2}, {Name: "checkout-h1", Hash: "h1", Revision: 1}}
			ro.History = []cluster.WorkloadRevision{
				{Revision: 1, Name: "checkout-h1", Images: []string{"web=shop/checkout:v1"},
					Diff: []cluster.DiffLine{{Op: '-', Text: "image: shop/checkout:v2"}, {Op: '+', Text: "image: shop/checkout:v1"}}},
				{Revision: 2, Name: "checkout-h2", Images: []string{"web=shop/checkout:v2"}, Current: true},
			}
		}, pausedAtStep, &uitest.Actions{}, nil)
		out := uitest.Plain(p.View())
		lines := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			lines[strings.TrimSpace(l)] = true
		}
		for _, want := range []string{strings.TrimSpace("▸ 1    web=shop/checkout:v1  " + c.want1), "2    web=shop/checkout:v2  " + c.want2} {
			if !lines[want] {
				t.Errorf("%s, stable %s: the history lacks the line %q:\n%s", c.strategy, c.stable, want, out)
			}
		}
		if !strings.Contains(out, c.from+" → revision 1 (") {
			t.Errorf("%s, stable %s: the diff does not read from the %s:\n%s", c.strategy, c.stable, c.from, out)
		}
	}
}

// A section that gave way first gets its room back when a later one's
// giving way left enough.
func TestFitSectionsGivesRoomBack(t *testing.T) {
	a := argoSection{full: []string{"a1", "a2", "a3", "a4"}, short: []string{"a"}, gives: 2}
	b := argoSection{full: []string{"b1", "b2"}, short: []string{"b"}, gives: 1}
	c := argoSection{full: []string{"c"}, short: []string{"c"}}
	if got := strings.Join(fitSections([]argoSection{a, b, c}, 4), " "); got != "a b1 b2 c" {
		t.Errorf("%q, want b whole again once a gave way", got)
	}
}

// The scale question says the Rollout's own replicas (it said a
// StatefulSet's, 0), and what the engine refuses is said under the field,
// before a confirmation that could not be sent.
func TestArgoScaleAsksFromTheRolloutsCount(t *testing.T) {
	refusal := "cannot scale rollout/checkout from 4 to 50000000 replicas in the embedded cluster — ask for fewer"
	acts := &uitest.Actions{CheckErr: errors.New(refusal)}
	p, _, _ := argoPage(t, pausedAtStep, acts, nil)
	p.Update(uitest.Press("s"))
	if out := uitest.Plain(p.View()); !strings.Contains(out, "replicas (now 4): ") {
		t.Fatalf("the scale question does not say the Rollout's 4 replicas:\n%s", out)
	}
	// Its own count changes nothing: the API would take it and do nothing.
	p.Update(uitest.Press("4"))
	p.Update(uitest.Press("enter"))
	if out := uitest.Plain(p.View()); !strings.Contains(out, "rollout/checkout already has 4 replicas — type another number") {
		t.Fatalf("a scale to the Rollout's own count was not refused:\n%s", out)
	}
	p.Update(uitest.Press("backspace"))
	for _, k := range []string{"5", "0", "0", "0", "0", "0", "0", "0", "enter"} {
		p.Update(uitest.Press(k))
	}
	out := uitest.Plain(p.View())
	if !strings.Contains(out, refusal) || strings.Contains(out, "y send") {
		t.Fatalf("the engine's refusal is not said under the field, or a confirmation opened:\n%s", out)
	}
	p.Update(uitest.Press("y"))
	if len(acts.Sent) != 0 {
		t.Errorf("sent %v after the refusal", acts.Sent)
	}
}

// rehearsing's forecast rehearses until its context ends, and says when.
type rehearsing struct {
	*uitest.Actions
	stopped chan error
}

func (r rehearsing) Forecast(ctx context.Context, _ action.Request) (string, error) {
	<-ctx.Done()
	r.stopped <- ctx.Err()
	return "", ctx.Err()
}

// A confirmation closed before its forecast came stops the rehearsal, as
// the Deployment's dialog does.
func TestClosingThePromptStopsItsForecast(t *testing.T) {
	for _, close := range []string{"esc", "n"} {
		acts := rehearsing{Actions: &uitest.Actions{}, stopped: make(chan error, 1)}
		p, _, _ := argoPage(t, pausedAtStep, acts, nil)
		_, cmd := p.Update(uitest.Press("P"))
		if cmd == nil || !strings.Contains(uitest.Plain(p.View()), "kubectl argo rollouts promote") {
			t.Fatalf("%s: P opened no confirmation with a forecast:\n%s", close, uitest.Plain(p.View()))
		}
		go cmd()
		p.Update(uitest.Press(close))
		select {
		case err := <-acts.stopped:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: the rehearsal ended with %v, want it cancelled", close, err)
			}
		case <-time.After(10 * time.Second): // screen.ActionTimeout is 30s
			t.Fatalf("%s closed the prompt and its forecast still rehearses", close)
		}
	}
}
