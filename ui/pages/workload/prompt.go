package workload

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/kind"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// prompt is one action being asked for: a line of text when the action
// needs one, then the confirmation that shows what will be sent.
type prompt struct {
	req      action.Request
	question string // "" once the text is in: the confirmation
	text     []rune
	// fill turns the text into the request, or says what is wrong with it.
	fill func(r *action.Request, text string) error
	// effect says in the operator's words what the request will do.
	effect string
	err    string
	// forecast is what the rehearsal on a copy says the action will do,
	// "" while it is worked out (actions whose spec has Forecast);
	// forecasting is the rehearsal while it runs.
	forecast    string
	forecasting screen.Pending
	// frame scrolls what the prompt says under its keys.
	frame screen.Frame
}

// Forecasted brings the confirmation its forecast.
type Forecasted struct {
	req  action.Request
	text string
	err  error
}

// confirming asks for the forecast of the request being confirmed, in the
// background, as the deployment's dialog does.
func (v *View) confirming() tea.Cmd {
	p := v.prompt
	acts := v.s.Actions
	if p == nil || p.question != "" || acts == nil || !p.req.Spec().Forecast {
		return nil
	}
	r := p.req
	return p.forecasting.Ask(func(ctx context.Context) tea.Msg {
		text, err := acts.Forecast(ctx, r)
		return Forecasted{req: r, text: text, err: err}
	})
}

// forecasted takes a forecast if it is for the confirmation still open (a
// stopped one was not wanted).
func (v *View) forecasted(msg Forecasted) {
	if p := v.prompt; p != nil && p.question == "" && reflect.DeepEqual(p.req, msg.req) && !errors.Is(msg.err, context.Canceled) {
		p.forecast = msg.text
		if msg.err != nil {
			p.forecast = "no forecast: " + msg.err.Error()
		}
	}
}

func (p *prompt) keyMap() help.KeyMap {
	if p.question != "" {
		return keys.Hints("enter", "next", "esc", "cancel")
	}
	return keys.Hints("y", "send", "n/esc", "cancel")
}

// start opens the prompt of action n, or says in the footer why it cannot.
func (v *View) start(n action.Name) tea.Cmd {
	s, k := v.s, v.s.Keys
	b := k.Action(n)
	switch {
	case !b.Enabled():
		s.Toast = b.Help().Desc + ": " + k.DisabledReason(string(n))
		return nil
	case v.Refused(string(n)) != "":
		s.Toast = b.Help().Desc + ": " + v.Refused(string(n))
		return nil
	case s.StillBusy():
		return nil
	case !v.found:
		s.Toast = string(v.kind) + " " + v.name + " not found in namespace " + draw.OrDash(v.namespace)
		return nil
	}
	p := &prompt{req: action.Request{Action: n, Namespace: v.namespace, Name: v.name}}
	containers := v.containers()
	switch p.req.Spec().Verb {
	case kind.Restart:
		p.effect = "every pod is replaced with the same template, as a rollout of a new revision"
	case kind.Undo:
		h := v.history()
		if len(h) == 0 {
			s.Toast = "no revisions of " + v.Object() + " yet"
			return nil
		}
		r := h[v.cursor]
		if r.Current {
			s.Toast = v.Object() + " is already at revision " + strconv.FormatInt(r.Revision, 10) + " — move the cursor (↑/↓) to another revision"
			return nil
		}
		p.req.Revision = r.Revision
		// The controller numbers the template it goes back to after the
		// newest.
		var newest int64
		for _, o := range h {
			newest = max(newest, o.Revision)
		}
		p.effect = "the template goes back to revision " + strconv.FormatInt(r.Revision, 10) + "'s (" + strings.Join(r.Images, ", ") + "), which becomes revision " + strconv.FormatInt(newest+1, 10)
	case kind.Scale:
		now := v.sts.Replicas
		if v.kind == kind.Rollout {
			now = v.ro.Desired
		}
		p.question = fmt.Sprintf("replicas (now %d): ", now)
		p.fill = func(r *action.Request, text string) error {
			n, err := action.ParseReplicas(text)
			if err == nil && n == now {
				// The API would take it and change nothing.
				return fmt.Errorf("%s already has %s — type another number", v.Object(), model.Plural(n, "replica"))
			}
			r.Replicas = n
			return err
		}
	case kind.Partition:
		p.question = fmt.Sprintf("partition: the lowest ordinal to update, 0 to %d (now %d): ", v.sts.Replicas, v.sts.Partition)
		p.fill = func(r *action.Request, text string) error {
			n, err := strconv.Atoi(strings.TrimSpace(text))
			if err != nil || n < 0 || n > int(v.sts.Replicas) {
				return fmt.Errorf("write an ordinal from 0 (update every pod) to %d (update none)", v.sts.Replicas)
			}
			r.Partition = int32(n)
			return nil
		}
	case kind.SetImage:
		p.question = "container=image (" + strings.Join(containers, ", ") + "): "
		p.fill = func(r *action.Request, text string) error {
			c, img, ok := strings.Cut(strings.TrimSpace(text), "=")
			if !ok || c == "" || img == "" {
				return fmt.Errorf("write CONTAINER=IMAGE, like %s", firstOr(containers, "app=registry/app:2"))
			}
			r.Container, r.Image = c, img
			return nil
		}
	case kind.SetEnv:
		p.question = "container NAME=value, or container NAME- to remove: "
		p.fill = func(r *action.Request, text string) error {
			c, env, ok := strings.Cut(strings.TrimSpace(text), " ")
			if !ok || c == "" || env == "" {
				return fmt.Errorf("write CONTAINER NAME=value, or CONTAINER NAME-")
			}
			r.Container, r.Env = c, strings.TrimSpace(env)
			return nil
		}
	}
	v.prompt = p
	if p.question == "" && s.AssumeYes {
		return v.send()
	}
	return v.confirming()
}

func firstOr(xs []string, d string) string {
	if len(xs) > 0 {
		return xs[0]
	}
	return d
}

func (v *View) containers() []string {
	if v.kind == action.OnStatefulSet {
		return v.sts.Containers
	}
	return v.ds.Containers
}

// answer takes one key of the prompt: text and enter while it asks, then y
// or n.
func (v *View) answer(k tea.KeyPressMsg) (*View, tea.Cmd) {
	p := v.prompt
	if k.String() == "esc" {
		v.prompt = nil
		return v, nil
	}
	// What does not fit scrolls; while text is typed only the keys that
	// type nothing do.
	if p.frame.Move(k, v.s.Keys, p.question != "", len(p.lines(v, v.w))) {
		return v, nil
	}
	if p.question != "" {
		switch k.String() {
		case "enter":
			err := p.fill(&p.req, string(p.text))
			if acts := v.s.Actions; err == nil && acts != nil {
				// What the engine refuses, refused here as the
				// Deployment's dialog does: before a confirmation
				// that could not be sent.
				err = acts.Check(p.req)
			}
			if err != nil {
				p.err = err.Error()
				return v, nil
			}
			p.question, p.err = "", ""
			if v.s.AssumeYes {
				return v, v.send()
			}
			return v, v.confirming()
		case "backspace":
			if len(p.text) > 0 {
				p.text = p.text[:len(p.text)-1]
			}
		default:
			if k.Text != "" {
				p.text = append(p.text, []rune(k.Text)...)
			}
		}
		return v, nil
	}
	switch k.String() {
	case "y", "enter":
		return v, v.send()
	case "n":
		v.prompt = nil
	}
	return v, nil
}

// send hands the request to the runner and closes the prompt.
func (v *View) send() tea.Cmd {
	r := v.prompt.req
	v.prompt = nil
	return v.s.Send(r)
}

// lines draws the prompt under the view.
func (p *prompt) lines(v *View, w int) []string {
	st := v.s.Styles
	l := draw.Lines{W: w}
	if p.question != "" {
		l.Add(st.Label.Render(p.question) + st.Text.Render(string(p.text)) + "▏")
		if p.err != "" {
			l.Wrap(st.Bad.Render, "", p.err)
		}
		return l.All()
	}
	l.Wrap(st.Accent.Render, "", p.req.Summary()+" of "+p.req.Object())
	if p.effect != "" {
		l.Wrap(st.Text.Render, "  ", p.effect)
	}
	if cmd := v.s.Kubectl(p.req); cmd != "" {
		l.Wrap(st.Muted.Render, "  same as: ", cmd)
	}
	if p.req.Spec().Forecast && v.s.Actions != nil {
		f := p.forecast
		if f == "" {
			f = "working out what the rollout will do …"
		}
		l.Wrap(st.Accent.Render, "  forecast: ", f)
	}
	return l.All()
}
