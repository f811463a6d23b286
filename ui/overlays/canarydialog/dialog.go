// Package canarydialog is the guided canary's overlay: the plan (the
// template change, the steps, their hold and what a failed gate does), its
// confirmation — every request it will send, as kubectl would send it, and a
// forecast of the whole plan — and the promote confirmations. It builds one
// action.Request and hands it to the console's one request runner.
package canarydialog

import (
	"context"
	"regexp"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/screen"
)

// stage is where the dialog is.
type stage int

const (
	stageLoading stage = iota
	stagePickContainer
	stageChange
	stageSteps
	stageHold
	stageOnFailure
	// stageAnalysis asks for the AnalysisTemplates whose metrics gate
	// each step; stageReadingGates waits for their first reading.
	stageAnalysis
	stageReadingGates
	stageConfirm
)

// Dialog builds a canary or promote request and shows what it will do.
type Dialog struct {
	s     *screen.Screen
	w, h  int
	req   action.Request
	stage stage

	containers []action.Container
	cursor     int
	input      string
	// problem is why the input was refused; refusal why nothing will be
	// sent.
	problem, refusal string
	plan             model.CanaryPlan
	lines            []string
	requests         []string
	// gates are the metric gates as read before the confirmation.
	gates []action.GateReading
	// frame scrolls what the dialog says under its keys.
	frame screen.Frame
}

// GatesRead brings the canary's metric gates, read once, to the dialog.
type GatesRead struct {
	gates []action.GateReading
	err   error
}

// ContainersRead brings the deployment's containers to the dialog that asked.
type ContainersRead struct {
	containers []action.Container
	err        error
}

// Open opens the dialog for kind (canary, promote, promote-all) on the
// deployment shown, or says in the footer why it cannot (nil).
func Open(s *screen.Screen, kind action.Name) (screen.Overlay, tea.Cmd) {
	req, ok := s.RolloutRequest(kind)
	if !ok {
		return nil, nil
	}
	d := &Dialog{s: s, req: req}
	if kind != action.Canary {
		return d.openPromote()
	}
	if _, err := cluster.CanaryPlanForView(s.Rollout, "", []string{"1"}, nil, ""); err != nil {
		s.Toast = "canary: " + err.Error()
		return nil, nil
	}
	acts, req := s.Actions, d.req
	return d, s.Fetch("the containers of deployment/"+s.Deployment, func(ctx context.Context) tea.Msg {
		cs, err := acts.Containers(ctx, req.Namespace, req.Name)
		return ContainersRead{containers: cs, err: err}
	})
}

// AsCanary opens the plan for a set image or set env request already
// built — the set image and set env dialogs' "roll as canary".
func AsCanary(s *screen.Screen, r action.Request) (screen.Overlay, tea.Cmd) {
	if !s.Keys.Action(action.Canary).Enabled() {
		s.Toast = "canary: " + s.Keys.DisabledReason(string(action.Canary))
		return nil, nil
	}
	d := &Dialog{s: s, req: action.Request{Action: action.Canary, Namespace: r.Namespace, Name: r.Name, Container: r.Container, Image: r.Image, Env: r.Env}}
	if r.Action == action.SetImage {
		d.req.Env = ""
	} else {
		d.req.Image = ""
	}
	d.startSteps()
	return d, nil
}

// openPromote confirms a promote of the canary shown.
func (d *Dialog) openPromote() (screen.Overlay, tea.Cmd) {
	s, c := d.s, d.s.Rollout.Canary
	switch {
	case c == nil:
		s.Toast = string(d.req.Action) + ": deployment/" + s.Deployment + " runs no canary — K starts one"
		return nil, nil
	case c.Phase == model.CanaryRolling:
		s.Toast = string(d.req.Action) + ": the canary is at its last step (100%), rolling out on the deployment's own strategy — nothing to promote"
		return nil, nil
	}
	d.req.Canary.FromStep = c.Step
	to := c.Step + 1
	if d.req.Action == action.PromoteAll {
		to = c.Steps
	}
	d.plan = c.Plan
	step := c.Plan.Step(to)
	if to == c.Steps {
		d.lines = append(d.lines, "to 100%: puts back the deployment's own strategy, minReadySeconds and progressDeadlineSeconds; the controller manager rolls the other pods with them")
	} else {
		d.lines = append(d.lines, "to step "+draw.Itoa(to)+" of "+draw.Itoa(c.Steps)+" ("+step.Spec+"): exactly "+draw.Itoa(step.Pods)+" new pods, every old pod kept")
	}
	switch c.Phase {
	case model.CanaryFailed:
		d.lines = append(d.lines, "the step failed its gate ("+c.Gate+"): promoting goes on regardless")
	case model.CanaryInconclusive:
		d.lines = append(d.lines, "the step is held: "+c.Gate+" — promoting is your call")
	}
	d.requests = []string{model.CanaryStepRequest(d.req.Name, c.Plan, to)}
	d.stage = stageConfirm
	if s.AssumeYes {
		return d.send()
	}
	return d, nil
}

// SetSize sizes the dialog to the body.
func (d *Dialog) SetSize(w, h int) { d.w, d.h = w, h; d.frame.SetSize(w, h) }

// Update handles the containers arriving and the keys.
func (d *Dialog) Update(msg tea.Msg) (screen.Overlay, tea.Cmd) {
	switch msg := msg.(type) {
	case ContainersRead:
		if d.stage != stageLoading {
			return d, nil
		}
		d.s.Fetched()
		if msg.err != nil {
			d.s.Toast = "canary: " + msg.err.Error()
			return nil, nil
		}
		if len(msg.containers) == 0 {
			d.s.Toast = "canary: deployment/" + d.req.Name + " has no containers"
			return nil, nil
		}
		d.containers = msg.containers
		d.stage = stagePickContainer
		if len(msg.containers) == 1 {
			d.pickContainer(0)
		}
	case GatesRead:
		return d.gatesRead(msg)
	case tea.KeyPressMsg:
		return d.key(msg)
	case tea.MouseWheelMsg:
		d.frame.Move(msg, d.s.Keys, false, len(d.content()))
	}
	return d, nil
}

func (d *Dialog) pickContainer(i int) {
	d.req.Container = d.containers[i].Name
	d.stage, d.input = stageChange, d.containers[i].Image
}

func (d *Dialog) key(msg tea.KeyPressMsg) (screen.Overlay, tea.Cmd) {
	d.problem = ""
	km := d.s.Keys
	if key.Matches(msg, km.Back) {
		if d.stage == stageLoading || d.stage == stageReadingGates {
			d.s.Fetched()
		}
		return nil, nil
	}
	// The container list moves its cursor with ↑/↓; elsewhere those keys
	// scroll what the dialog says when it does not fit.
	typed := d.stage != stageConfirm
	if d.stage != stagePickContainer && d.frame.Move(msg, km, typed, len(d.content())) {
		return d, nil
	}
	before := d.stage
	defer func() {
		if d.stage != before {
			d.frame.Top()
		}
	}()
	switch d.stage {
	case stageLoading, stageReadingGates:
	case stagePickContainer:
		switch {
		case key.Matches(msg, km.Up):
			d.cursor = max(d.cursor-1, 0)
		case key.Matches(msg, km.Down):
			d.cursor = min(d.cursor+1, len(d.containers)-1)
		case key.Matches(msg, km.Select):
			d.pickContainer(d.cursor)
		}
	case stageConfirm:
		switch msg.String() {
		case "y", "Y":
			if d.refusal != "" {
				return nil, nil
			}
			return d.send()
		case "n", "N", "q", "enter":
			if msg.String() != "enter" || d.refusal != "" {
				return nil, nil
			}
		}
	default:
		if typing(&d.input, msg) {
			return d.accept()
		}
	}
	return d, nil
}

// typing edits the input line; it reports whether enter accepted it.
func typing(in *string, msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "enter":
		return true
	case "backspace":
		if r := []rune(*in); len(r) > 0 {
			*in = string(r[:len(r)-1])
		}
		return false
	case "ctrl+u":
		*in = ""
		return false
	}
	*in += msg.Text
	return false
}

// envChange tells a variable change (NAME=value, NAME-) from an image.
var envChange = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*(=.*|-)$`)

// accept takes the input of the current stage and moves on.
func (d *Dialog) accept() (screen.Overlay, tea.Cmd) {
	in := strings.TrimSpace(d.input)
	switch d.stage {
	case stageChange:
		d.req.Image, d.req.Env = in, ""
		if envChange.MatchString(in) && !strings.ContainsAny(in, ":/") {
			d.req.Image, d.req.Env = "", in
		}
		if err := d.s.Actions.Check(action.Request{Action: action.Canary, Container: d.req.Container, Image: d.req.Image, Env: d.req.Env,
			Canary: action.CanarySettings{Steps: []string{"1"}}}); err != nil {
			d.problem = err.Error()
			return d, nil
		}
		for _, c := range d.containers {
			if c.Name == d.req.Container && c.Image == d.req.Image {
				d.problem = d.req.Container + " already runs " + d.req.Image + " — type another image"
				return d, nil
			}
		}
		d.startSteps()
	case stageSteps:
		d.req.Canary.Steps = model.SplitCanaryList(in)
		if _, err := cluster.CanaryPlanForView(d.s.Rollout, "", d.req.Canary.Steps, nil, ""); err != nil {
			d.problem = err.Error()
			return d, nil
		}
		d.stage, d.input = stageHold, "pause"
	case stageHold:
		d.req.Canary.Holds = model.SplitCanaryList(in)
		if _, err := cluster.CanaryPlanForView(d.s.Rollout, "", d.req.Canary.Steps, d.req.Canary.Holds, ""); err != nil {
			d.problem = err.Error()
			return d, nil
		}
		d.stage, d.input = stageOnFailure, model.CanaryOnFailurePause
	case stageOnFailure:
		if _, err := model.CheckCanaryOnFailure(in); err != nil {
			d.problem = err.Error()
			return d, nil
		}
		d.req.Canary.OnFailure = in
		d.stage, d.input = stageAnalysis, strings.Join(d.req.Canary.Templates, ", ")
	case stageAnalysis:
		d.req.Canary.Templates = model.SplitCanaryList(in)
		if len(d.req.Canary.Templates) == 0 {
			d.req.Canary.Templates, d.gates = nil, nil
			return d.confirm()
		}
		d.stage = stageReadingGates
		acts, req := d.s.Actions, d.req
		return d, d.s.Fetch("the canary's metric gates", func(ctx context.Context) tea.Msg {
			g, err := acts.PlanGates(ctx, req)
			return GatesRead{gates: g, err: err}
		})
	}
	return d, nil
}

// gatesRead takes the gates' first reading: a gate that cannot be read
// sends the operator back to the templates with the provider's words.
func (d *Dialog) gatesRead(msg GatesRead) (screen.Overlay, tea.Cmd) {
	if d.stage != stageReadingGates {
		return d, nil
	}
	d.s.Fetched()
	if msg.err != nil {
		d.stage, d.problem = stageAnalysis, msg.err.Error()
		return d, nil
	}
	d.gates = msg.gates
	return d.confirm()
}

// startSteps asks for the steps, with a plan operators often start from.
func (d *Dialog) startSteps() {
	d.stage, d.input = stageSteps, "1, 25%, 50%"
}

// confirm resolves the plan against the rollout shown and shows it.
func (d *Dialog) confirm() (screen.Overlay, tea.Cmd) {
	r := d.req
	p, err := cluster.CanaryPlanForView(d.s.Rollout, r.Summary(), r.Canary.Steps, r.Canary.Holds, r.Canary.OnFailure)
	if err != nil {
		d.problem = err.Error()
		return d, nil
	}
	d.plan = p
	d.lines = append(cluster.CanaryForecastLines(p), gateLines(d.gates)...)
	d.requests = d.requests[:0]
	for k := 1; k <= p.Last(); k++ {
		d.requests = append(d.requests, "step "+draw.Itoa(k)+": "+model.CanaryStepRequest(r.Name, p, k))
		if k == 1 {
			d.requests = append(d.requests, "        in the same update as "+change(r))
		}
	}
	d.stage = stageConfirm
	if d.s.AssumeYes {
		return d.send()
	}
	return d, nil
}

// change is the template change as kubectl writes it.
func change(r action.Request) string {
	if r.Image != "" {
		return "kubectl set image deployment/" + r.Name + " " + r.Container + "=" + r.Image
	}
	return "kubectl set env deployment/" + r.Name + " -c " + r.Container + " " + r.Env
}

// send closes the dialog and hands the request to the runner.
func (d *Dialog) send() (screen.Overlay, tea.Cmd) { return nil, d.s.Send(d.req) }

// Writes says the dialog asks before it changes the cluster: the root holds
// the embedded clock while it is open, so the plan's forecast and the y that
// sends it are about the same cluster.
func (d *Dialog) Writes() bool { return true }
