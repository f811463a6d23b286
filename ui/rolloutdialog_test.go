package ui

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/overlays/canarydialog"
	"rollscope/ui/overlays/rolloutdialog"
	"rollscope/ui/screen"
)

// fakeActions records what the console asked for; refuse maps an input
// (image, env, replicas as text) to the reason Check gives.
type fakeActions struct {
	containers []action.Container
	refuse     map[string]string
	sent       []action.Request
	inspected  int
	result     string
	err        error
	diff       []cluster.DiffLine
	// gates and gatesErr are PlanGates' answer.
	gates    []action.GateReading
	gatesErr error
}

func (f *fakeActions) Containers(context.Context, string, string) ([]action.Container, error) {
	f.inspected++
	return f.containers, nil
}

func (f *fakeActions) Check(r action.Request) error {
	for _, in := range []string{r.Image, r.Env, fmt.Sprint(r.Replicas)} {
		if why, ok := f.refuse[in]; ok {
			return errors.New(why)
		}
	}
	return nil
}

func (f *fakeActions) Send(_ context.Context, r action.Request) (string, error) {
	f.sent = append(f.sent, r)
	if f.result == "" && f.err == nil {
		return "ok", nil
	}
	return f.result, f.err
}

func (f *fakeActions) Forecast(_ context.Context, r action.Request) (string, error) {
	return "4 scaling steps, new pods ready in 2 waves, at most 13 pods, never fewer than 8 available, about 22s", nil
}

func (f *fakeActions) UndoPreview(context.Context, string, string, int64) ([]cluster.DiffLine, error) {
	return f.diff, nil
}

func (f *fakeActions) PreviewDrain(context.Context, string, action.DrainOptions) (action.DrainPreview, error) {
	return action.DrainPreview{}, nil
}

func (f *fakeActions) PlanRoll(string, action.RollSettings) (string, error) { return "", nil }

func (f *fakeActions) PlanRCUpdate(context.Context, string, action.RCUpdateInput) (action.RCPlan, error) {
	return action.RCPlan{}, errors.New("no ReplicationControllers here")
}

// recordingSource is the fixture plus the timeline of console actions.
type recordingSource struct {
	*fakeSource
	actions []cluster.TimelineEntry
}

func (r *recordingSource) AddAction(_, _ string, e cluster.TimelineEntry) {
	r.actions = append(r.actions, e)
}

func newActionModel(t *testing.T, acts *fakeActions, src Source, edit func(*Options)) Model {
	t.Helper()
	opts := Options{Cluster: src, Namespace: "shop", Deployment: "frontend", Context: "kind-dev",
		Theme: themes.Dark(), Clock: fixedClock, Actions: acts, Record: true}
	if edit != nil {
		edit(&opts)
	}
	m := New(opts)
	return send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
}

// run sends msgs and runs the commands they return, feeding the results
// back, as the Bubble Tea runtime does for the action commands.
func run(m Model, msgs ...tea.Msg) Model {
	for _, msg := range msgs {
		next, cmd := m.Update(msg)
		m = next.(Model)
		m = runCmd(m, cmd)
	}
	return m
}

func runCmd(m Model, cmd tea.Cmd) Model {
	if cmd == nil {
		return m
	}
	switch out := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range out {
			m = runCmd(m, c)
		}
	case rolloutdialog.Containers, screen.Sent, rolloutdialog.Previewed, rolloutdialog.Forecasted, canarydialog.ContainersRead, canarydialog.GatesRead:
		next, more := m.Update(out)
		m = runCmd(next.(Model), more)
	}
	return m
}

var ctrlU = tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}

func oneContainer() *fakeActions {
	return &fakeActions{containers: []action.Container{{Name: "nginx", Image: "nginx:1.28", Env: []string{"LOG=info"}}},
		refuse: map[string]string{"Nginx:1": `image "Nginx:1" is not a valid reference`, "-3": "replicas must be 0 or more"}}
}

func TestSetImageShowsThePlanAndSendsOnY(t *testing.T) {
	acts := oneContainer()
	src := &recordingSource{fakeSource: midRollout()}
	m := newActionModel(t, acts, src, nil)
	m = run(m, press("i"))
	if s := plain(m); !strings.Contains(s, "> nginx:1.28") {
		t.Fatalf("the image input does not start from the current image:\n%s", s)
	}
	m = run(m, ctrlU)
	m = run(m, typed("nginx:1.2")...)
	m = run(m, press("tab")) // completes from earlier revisions, newest first
	if s := plain(m); !strings.Contains(s, "> nginx:1.28") {
		t.Fatalf("tab did not complete nginx:1.2 to the newest earlier image:\n%s", s)
	}
	m = run(m, press("tab"))
	if s := plain(m); !strings.Contains(s, "> nginx:1.27") {
		t.Fatalf("a second tab did not move on to nginx:1.27:\n%s", s)
	}
	m = run(m, press("enter"))
	s := plain(m)
	for _, want := range []string{"kubectl -n shop set image deployment/frontend nginx=nginx:1.27",
		"nginx: nginx:1.28 → nginx:1.27", "records kubernetes.io/change-cause", "y send"} {
		if !strings.Contains(s, want) {
			t.Errorf("the confirmation lacks %q:\n%s", want, s)
		}
	}
	if len(acts.sent) != 0 {
		t.Fatalf("sent before y: %+v", acts.sent)
	}
	m = run(m, press("y"))
	want := action.Request{Action: action.SetImage, Namespace: "shop", Name: "frontend", Container: "nginx", Image: "nginx:1.27"}
	if len(acts.sent) != 1 || !reflect.DeepEqual(acts.sent[0], want) {
		t.Fatalf("sent %+v, want exactly %+v", acts.sent, want)
	}
	if s := plain(m); !strings.Contains(s, "✔ set image nginx=nginx:1.27: ok") {
		t.Errorf("no result toast:\n%s", s)
	}
	if len(src.actions) != 1 || src.actions[0].Message != "set image nginx=nginx:1.27: ok" || src.actions[0].Object != "deployment/frontend" {
		t.Errorf("timeline got %+v", src.actions)
	}
}

func TestSetImagePicksTheContainerWhenThereAreSeveral(t *testing.T) {
	acts := oneContainer()
	acts.containers = append(acts.containers, action.Container{Name: "sidecar", Image: "envoy:1.30"})
	m := newActionModel(t, acts, midRollout(), nil)
	m = run(m, press("i"))
	if s := plain(m); !strings.Contains(s, "which container?") || !strings.Contains(s, "sidecar") {
		t.Fatalf("no container picker:\n%s", s)
	}
	m = run(m, press("j"), press("enter"))
	m = run(m, ctrlU)
	m = run(m, typed("envoy:1.31")...)
	run(m, press("enter"), press("y"))
	if len(acts.sent) != 1 || acts.sent[0].Container != "sidecar" || acts.sent[0].Image != "envoy:1.31" {
		t.Fatalf("sent %+v, want sidecar=envoy:1.31", acts.sent)
	}
}

// Bad input is refused in the dialog, with the reason, and nothing is sent.
func TestBadInputIsRefusedInTheDialog(t *testing.T) {
	cases := []struct {
		name string
		key  string
		in   string
		want string
	}{
		{"malformed image", "i", "Nginx:1", `image "Nginx:1" is not a valid reference`},
		{"same image", "i", "nginx:1.28", "nginx already runs nginx:1.28"},
		{"env without =", "e", "LOG", "write NAME=value to set a variable, or NAME- to remove it"},
		{"negative replicas", "s", "-3", "replicas must be 0 or more"},
		{"not a number", "s", "ten", "replicas must be a whole number"},
		{"too many replicas", "s", "99999999999", "more than the API accepts"},
		{"same replicas", "s", "10", "already has 10 replicas"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			acts := oneContainer()
			m := newActionModel(t, acts, midRollout(), nil)
			m = run(m, press(tc.key), ctrlU)
			m = run(m, typed(tc.in)...)
			m = run(m, press("enter"))
			if s := plain(m); !strings.Contains(s, tc.want) || !strings.Contains(s, "✖") {
				t.Errorf("the dialog does not say %q:\n%s", tc.want, s)
			}
			run(m, press("enter"), press("y"))
			if len(acts.sent) != 0 {
				t.Fatalf("bad input was sent: %+v", acts.sent)
			}
		})
	}
}

func TestSetEnvAndScaleAndRestartSend(t *testing.T) {
	cases := []struct {
		name string
		keys []tea.Msg
		want action.Request
	}{
		{"set env", append(append([]tea.Msg{press("e")}, typed("LOG=debug")...), press("enter"), press("y")),
			action.Request{Action: action.SetEnv, Container: "nginx", Env: "LOG=debug"}},
		{"remove env", append(append([]tea.Msg{press("e")}, typed("LOG-")...), press("enter"), press("y")),
			action.Request{Action: action.SetEnv, Container: "nginx", Env: "LOG-"}},
		{"scale", append(append([]tea.Msg{press("s"), ctrlU}, typed("12")...), press("enter"), press("y")),
			action.Request{Action: action.Scale, Replicas: 12}},
		{"restart", []tea.Msg{press("R"), press("y")}, action.Request{Action: action.Restart}},
		{"pause", []tea.Msg{press("p"), press("y")}, action.Request{Action: action.Pause}},
		{"abort", []tea.Msg{press("x"), press("y")}, action.Request{Action: action.Abort}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			acts := oneContainer()
			m := newActionModel(t, acts, midRollout(), nil)
			run(m, tc.keys...)
			tc.want.Namespace, tc.want.Name = "shop", "frontend"
			if len(acts.sent) != 1 || !reflect.DeepEqual(acts.sent[0], tc.want) {
				t.Fatalf("sent %+v, want exactly %+v", acts.sent, tc.want)
			}
		})
	}
}

func TestCancelSendsNothing(t *testing.T) {
	for _, k := range []string{"n", "esc"} {
		acts := oneContainer()
		m := newActionModel(t, acts, midRollout(), nil)
		m = run(m, press("p"), press(k))
		if len(acts.sent) != 0 || m.overlay != nil {
			t.Fatalf("%s: sent %+v, dialog open %v", k, acts.sent, m.overlay != nil)
		}
	}
}

// A key pressed again while the first request is on its way sends nothing.
func TestNothingIsSentTwice(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, midRollout(), nil)
	m = send(m, press("p"))
	next, cmd := m.Update(press("y"))
	m = next.(Model)
	if cmd == nil {
		t.Fatal("y returned no command to send")
	}
	m = send(m, press("y"), press("p"))
	if s := plain(m); !strings.Contains(s, "still waiting for pause") {
		t.Errorf("a second p while the first is on its way says nothing:\n%s", s)
	}
	m = send(m, press("y"))
	m = run(m, cmd())
	if len(acts.sent) != 1 {
		t.Fatalf("sent %d requests, want 1", len(acts.sent))
	}
	if m.s.Busy() != "" {
		t.Fatalf("still busy after the result: %q", m.s.Busy())
	}
}

func TestPauseShowsInTheHeaderAtOnce(t *testing.T) {
	m := newActionModel(t, oneContainer(), midRollout(), nil)
	m = run(m, press("p"), press("y"))
	// The fixture still says not paused: the watch has not brought it.
	if s := plain(m); !strings.Contains(strings.Split(s, "\n")[0], "PAUSED") {
		t.Errorf("the header does not show PAUSED right after the pause:\n%s", s)
	}
}

func TestYesSkipsTheConfirmation(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, midRollout(), func(o *Options) { o.AssumeYes = true })
	run(m, press("p"))
	if len(acts.sent) != 1 || acts.sent[0].Action != action.Pause {
		t.Fatalf("with --yes, p sent %+v", acts.sent)
	}
}

func TestReadOnlyDisablesEveryWrite(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, midRollout(), func(o *Options) { o.ReadOnly = true; o.Actions = nil })
	if s := plain(m); !strings.Contains(strings.Split(s, "\n")[0], "READ-ONLY") {
		t.Errorf("the header does not say READ-ONLY:\n%s", s)
	}
	for _, k := range []string{"i", "e", "s", "R", "p", "r", "u", "x", "c", "d"} {
		m = run(m, press(k))
		if s := plain(m); !strings.Contains(s, "read-only: rollscope was started with --read-only") {
			t.Errorf("%s under --read-only says:\n%s", k, s)
		}
	}
	if acts.inspected != 0 || len(acts.sent) != 0 {
		t.Fatalf("read-only called the cluster: %d inspections, %+v", acts.inspected, acts.sent)
	}
}

func TestDeniedKeysSayWhy(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, midRollout(), func(o *Options) {
		o.Denied = map[action.Name]string{action.Scale: "not allowed to patch deployments/scale in shop"}
	})
	m = run(m, press("s"))
	if s := plain(m); !strings.Contains(s, "scale: not allowed to patch deployments/scale in shop") {
		t.Errorf("a denied key does not say why:\n%s", s)
	}
	if why := m.s.Keys.DisabledReason("scale"); !strings.Contains(why, "not allowed") {
		t.Errorf("the key map (and so help) gives the reason %q", why)
	}
	if len(acts.sent) != 0 {
		t.Fatal("sent")
	}
}

func TestFailuresSayWhyInTheToastAndTimeline(t *testing.T) {
	acts := oneContainer()
	acts.err = errors.New("cannot pause deployment/frontend: forbidden — ask for permission")
	src := &recordingSource{fakeSource: midRollout()}
	m := newActionModel(t, acts, src, nil)
	m = run(m, press("p"), press("y"))
	// At 80 columns the footer keeps the way out; the timeline has it all.
	if s := plain(m); !strings.Contains(s, "✖ pause: failed — cannot pause deployment/frontend") || !strings.Contains(s, "— ask for permission") {
		t.Errorf("toast:\n%s", s)
	}
	if len(src.actions) != 1 || !src.actions[0].Warning {
		t.Errorf("timeline %+v, want one warning", src.actions)
	}
	if s := plain(m); strings.Contains(strings.Split(s, "\n")[0], "PAUSED") {
		t.Errorf("a failed pause shows PAUSED")
	}
}

func TestUndoPicksARevisionAndPreviewsTheDiff(t *testing.T) {
	acts := oneContainer()
	acts.diff = []cluster.DiffLine{{Op: '-', Text: "image: nginx:1.28"}, {Op: '+', Text: "image: nginx:1.27"}}
	m := newActionModel(t, acts, midRollout(), nil)
	m = run(m, press("u"))
	s := plain(m)
	if !strings.Contains(s, "undo to which revision?") || !strings.Contains(s, "rolls deployment/frontend back to revision 2") {
		t.Fatalf("the picker does not start on the previous revision:\n%s", s)
	}
	m = run(m, press("enter"))
	s = plain(m)
	for _, want := range []string{"kubectl -n shop rollout undo deployment/frontend --to-revision=2",
		"pod template: current → revision 2", "- image: nginx:1.28", "+ image: nginx:1.27"} {
		if !strings.Contains(s, want) {
			t.Errorf("the undo confirmation lacks %q:\n%s", want, s)
		}
	}
	run(m, press("y"))
	if len(acts.sent) != 1 || acts.sent[0].Action != action.Undo || acts.sent[0].Revision != 2 || acts.sent[0].ResumeFirst {
		t.Fatalf("sent %+v, want undo to revision 2", acts.sent)
	}
}

func TestUndoRefusalsHaveAWayOut(t *testing.T) {
	t.Run("current revision sends nothing", func(t *testing.T) {
		acts := oneContainer()
		m := newActionModel(t, acts, midRollout(), nil)
		m = run(m, press("u"), press("j"), press("enter"))
		if s := plain(m); !strings.Contains(s, "already at revision 3 — nothing to send") {
			t.Errorf("no refusal:\n%s", s)
		}
		run(m, press("y"))
		if len(acts.sent) != 0 {
			t.Fatalf("sent %+v", acts.sent)
		}
	})
	t.Run("renumbered revision stays in the picker", func(t *testing.T) {
		src := midRollout()
		v := src.rollouts["shop/frontend"]
		v.History[0].Gone, v.History[0].Now = true, 3
		src.rollouts["shop/frontend"] = v
		acts := oneContainer()
		m := newActionModel(t, acts, src, nil)
		m = run(m, press("u"), press("k"), press("enter"))
		s := plain(m)
		if !strings.Contains(strings.Join(strings.Fields(s), " "), "revision 1 is now revision 3: an undo gave its ReplicaSet that number") || !strings.Contains(s, "undo to which revision?") {
			t.Errorf("a renumbered revision is not refused in the picker:\n%s", s)
		}
		run(m, press("y"), press("enter"))
		if len(acts.sent) != 0 {
			t.Fatalf("sent %+v", acts.sent)
		}
	})
	t.Run("paused offers to resume first", func(t *testing.T) {
		src := midRollout()
		v := src.rollouts["shop/frontend"]
		v.Paused = true
		src.rollouts["shop/frontend"] = v
		acts := oneContainer()
		m := newActionModel(t, acts, src, nil)
		m = run(m, press("u"), press("enter"))
		if s := plain(m); !strings.Contains(s, "kubectl refuses to roll back a paused deployment") {
			t.Errorf("no offer to resume:\n%s", s)
		}
		run(m, press("y"))
		if len(acts.sent) != 1 || !acts.sent[0].ResumeFirst {
			t.Fatalf("sent %+v, want an undo that resumes first", acts.sent)
		}
	})
}

// A paused deployment given a new image runs no ReplicaSet of it: the
// header says so, and an undo to the revision number it still shows is no
// "nothing to send" — it would throw the pending change away, and says so.
func TestUndoWithAPendingChangeComparesTemplates(t *testing.T) {
	src := pausedWithAPendingImage()
	acts := oneContainer()
	m := newActionModel(t, acts, src, nil)
	if s := plain(m); !strings.Contains(s, "pending, rolled out on resume: nginx nginx:1.28 → nginx:1.29") {
		t.Errorf("the header does not show the pending change:\n%s", s)
	}
	m = run(m, press("u"), press("j"), press("enter"))
	s := plain(m)
	if strings.Contains(s, "nothing to send") || !strings.Contains(s, "discards the pending change no ReplicaSet runs yet: nginx nginx:1.28 →") {
		t.Fatalf("undo to the current revision number does not say it discards the pending change:\n%s", s)
	}
	run(m, press("y"))
	if len(acts.sent) != 1 || acts.sent[0].Action != action.Undo || acts.sent[0].Revision != 3 || !acts.sent[0].ResumeFirst {
		t.Fatalf("sent %+v, want an undo to revision 3 that resumes first", acts.sent)
	}
}

// pausedWithAPendingImage is frontend mid-rollout, then paused and given
// nginx:1.29, which no ReplicaSet runs until it is resumed.
func pausedWithAPendingImage() *fakeSource {
	src := midRollout()
	v := src.rollouts["shop/frontend"]
	v.Paused, v.Pending = true, "nginx nginx:1.28 → nginx:1.29"
	src.rollouts["shop/frontend"] = v
	return src
}

// On a paused deployment a new image starts nothing: the plan says it
// waits; resuming says it rolls the pending change out.
func TestPausedPlansSayWhatWaits(t *testing.T) {
	src := pausedWithAPendingImage()
	m := newActionModel(t, oneContainer(), src, nil)
	m = run(m, press("r"))
	if s := plain(m); !strings.Contains(s, "rolls out the pending change: nginx nginx:1.28 → nginx:1.29") {
		t.Errorf("resume does not say it rolls out the pending change:\n%s", s)
	}
}

func TestAbortAndPauseRefuseWhenThereIsNothingToDo(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, midRollout(), nil)
	m = run(m, press(":"))
	m = run(m, typed("checkout")...)
	m = run(m, press("enter"), press("x"))
	if s := plain(m); !strings.Contains(s, "the rollout of revision 1 has finished — nothing to abort") {
		t.Errorf("abort on a finished rollout:\n%s", s)
	}
	m = run(m, press("r"))
	if s := plain(m); !strings.Contains(s, "is not paused — nothing sent") {
		t.Errorf("resume of a running rollout:\n%s", s)
	}
	if len(acts.sent) != 0 {
		t.Fatalf("sent %+v", acts.sent)
	}
}

// The dialogs as golden screens at 80×24.
func TestGoldenDialogs(t *testing.T) {
	typedThen := func(first []tea.Msg, text string, last ...tea.Msg) []tea.Msg {
		return append(append(first, typed(text)...), last...)
	}
	cases := []struct {
		name string
		keys []tea.Msg
	}{
		{"set-image-input", []tea.Msg{press("i")}},
		{"set-image-confirm", typedThen([]tea.Msg{press("i"), ctrlU}, "nginx:1.29", press("enter"))},
		{"set-image-refused", typedThen([]tea.Msg{press("i"), ctrlU}, "Nginx:1", press("enter"))},
		{"set-env-input", typedThen([]tea.Msg{press("e")}, "LOG=debug")},
		{"scale-confirm", typedThen([]tea.Msg{press("s"), ctrlU}, "12", press("enter"))},
		{"restart-confirm", []tea.Msg{press("R")}},
		{"pause-confirm", []tea.Msg{press("p")}},
		{"undo-picker", []tea.Msg{press("u")}},
		{"undo-confirm", []tea.Msg{press("u"), press("enter")}},
		{"abort-confirm", []tea.Msg{press("x")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			acts := oneContainer()
			acts.diff = []cluster.DiffLine{{Op: ' ', Text: "containers:"}, {Op: '-', Text: "  image: nginx:1.28"}, {Op: '+', Text: "  image: nginx:1.27"}}
			m := newActionModel(t, acts, midRollout(), nil)
			m = run(m, tc.keys...)
			checkFits(t, m.Render(), 80, 24)
			compareGolden(t, "dialog-"+tc.name+"-80x24", ansi.Strip(m.Render())+"\n")
			if len(acts.sent) != 0 {
				t.Fatalf("showing a dialog sent %+v", acts.sent)
			}
		})
	}
}

func (f *fakeActions) PlanGates(context.Context, action.Request) ([]action.GateReading, error) {
	return f.gates, f.gatesErr
}

// rehearsingActions' forecast rehearses until its context ends, and says
// when it did.
type rehearsingActions struct {
	*fakeActions
	stopped chan error
}

func (f *rehearsingActions) Forecast(ctx context.Context, _ action.Request) (string, error) {
	<-ctx.Done()
	f.stopped <- ctx.Err()
	return "", ctx.Err()
}

// goRun runs cmd in the background as the Bubble Tea runtime does, each
// command of a batch on its own.
func goRun(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if b, ok := cmd().(tea.BatchMsg); ok {
			for _, c := range b {
				goRun(c)
			}
		}
	}()
}

// A confirmation closed before its forecast came stops the rehearsal: it
// went on holding a copy of the workload and a processor for up to
// ActionTimeout, one more for each time the dialog was opened and closed.
func TestClosingTheDialogStopsItsForecast(t *testing.T) {
	for _, close := range []string{"esc", "n"} {
		acts := &rehearsingActions{fakeActions: oneContainer(), stopped: make(chan error, 1)}
		opts := Options{Cluster: midRollout(), Namespace: "shop", Deployment: "frontend", Context: "kind-dev",
			Theme: themes.Dark(), Clock: fixedClock, Actions: acts, Record: true}
		m := send(New(opts), tea.WindowSizeMsg{Width: 80, Height: 24})
		m = run(m, press("i"), ctrlU)
		m = run(m, typed("nginx:1.29")...)
		next, cmd := m.Update(press("enter")) // the confirmation, its forecast started
		m = next.(Model)
		goRun(cmd)
		if s := plain(m); !strings.Contains(s, "forecast: working out") {
			t.Fatalf("%s: no forecast under way:\n%s", close, s)
		}
		m = run(m, press(close))
		select {
		case err := <-acts.stopped:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: the rehearsal ended with %v, want it cancelled", close, err)
			}
		case <-time.After(10 * time.Second): // ActionTimeout is 30s
			t.Fatalf("%s closed the dialog and its forecast still rehearses", close)
		}
		if len(acts.sent) != 0 {
			t.Errorf("%s: sent %v", close, acts.sent)
		}
	}
}

// The scale field starts empty with the count now beside it: it held the
// count, so 30 typed after 10 read 1030, and the plan offered to send that.
func TestScaleTypesTheNewCountNotDigitsAfterTheOld(t *testing.T) {
	acts := oneContainer()
	m := newActionModel(t, acts, midRollout(), nil)
	m = run(m, press("s"))
	if s := plain(m); !strings.Contains(s, "replicas (now 10)") || strings.Contains(s, "> 10") {
		t.Fatalf("the scale field does not start empty beside the count now:\n%s", s)
	}
	m = run(m, typed("30")...)
	m = run(m, press("enter"))
	if s := plain(m); !strings.Contains(s, "replicas 10 → 30") {
		t.Fatalf("30 typed is not the count planned:\n%s", s)
	}
	run(m, press("y"))
	if len(acts.sent) != 1 || acts.sent[0].Replicas != 30 {
		t.Errorf("sent %+v, want one scale to 30", acts.sent)
	}
}
