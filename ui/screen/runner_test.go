package screen

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"rollscope/model/action"
	"rollscope/model/cluster"
)

// recorder is a Source that keeps only the timeline lines it is given.
type recorder struct {
	Source
	lines []string
}

func (r *recorder) AddAction(namespace, name string, e cluster.TimelineEntry) {
	r.lines = append(r.lines, fmt.Sprintf("%s/%s %s %s warning=%v", namespace, name, e.Object, e.Message, e.Warning))
}

// sender answers every request with result and err.
type sender struct {
	Actions
	result string
	err    error
	sent   int
}

func (s *sender) Send(context.Context, action.Request) (string, error) {
	s.sent++
	return s.result, s.err
}

// Every request goes through the runner alike: one at a time, a toast, and
// a timeline line — on the deployment it changed, or on the one shown for
// nodes, node groups and ReplicationControllers.
func TestTheRunnerSendsOnceAndFilesEveryResult(t *testing.T) {
	for _, tc := range []struct {
		req           action.Request
		result        string
		err           error
		toast, timeln string
	}{
		{action.Request{Action: action.Scale, Namespace: "shop", Name: "api", Replicas: 3}, "ok", nil,
			"✔ scale to 3: ok", "shop/api deployment/api scale to 3: ok warning=false"},
		{action.Request{Action: action.Cordon, Nodes: []string{"a", "b"}}, "", errors.New("forbidden"),
			"✖ cordon a, b: failed — forbidden", "shop/frontend node/a,b cordon a, b: failed — forbidden warning=true"},
		{action.Request{Action: action.RCAbort, Namespace: "shop", Name: "web"}, "", fmt.Errorf("no update: %w", action.ErrNothingToDo),
			"⊘ roll back the update of web: nothing sent — no update: nothing to do",
			"shop/frontend replicationcontroller/web roll back the update of web: nothing sent — no update: nothing to do warning=false"},
	} {
		src, acts := &recorder{}, &sender{result: tc.result, err: tc.err}
		s := &Screen{Src: src, Actions: acts, Clock: time.Now, Namespace: "shop", Deployment: "frontend"}
		cmd := s.Send(tc.req)
		if s.Send(tc.req) != nil || s.Toast != "still waiting for "+tc.req.Summary()+" — one action at a time" {
			t.Errorf("%s: a second send while the first is on its way: toast %q", tc.req.Action, s.Toast)
		}
		s.Finish(cmd().(Sent))
		if acts.sent != 1 || s.Busy() != "" || s.Toast != tc.toast || len(src.lines) != 1 || src.lines[0] != tc.timeln {
			t.Errorf("%s: sent %d, busy %q, toast %q, timeline %q", tc.req.Action, acts.sent, s.Busy(), s.Toast, src.lines)
		}
	}
}

// A rollout action's dialog opens on the deployment shown, and not with
// none shown or while a request is on its way, saying which in the footer.
func TestARolloutRequestIsOnTheDeploymentShown(t *testing.T) {
	s := &Screen{Src: &recorder{}, Actions: &sender{result: "ok"}, Clock: time.Now, Namespace: "shop"}
	if _, ok := s.RolloutRequest(action.Scale); ok || s.Toast != "scale: no deployment selected — press : to pick one" {
		t.Errorf("with no deployment shown: ok %v, toast %q", ok, s.Toast)
	}
	s.Deployment, s.HaveRollout, s.Toast = "frontend", true, ""
	req, ok := s.RolloutRequest(action.Scale)
	if want := (action.Request{Action: action.Scale, Namespace: "shop", Name: "frontend"}); !ok || !reflect.DeepEqual(req, want) || s.Toast != "" {
		t.Errorf("on shop/frontend: %+v, ok %v, toast %q; want %+v", req, ok, s.Toast, want)
	}
	cmd := s.Send(req)
	if _, ok := s.RolloutRequest(action.Pause); ok || s.Toast != "still waiting for "+req.Summary()+" — one action at a time" {
		t.Errorf("while scale is on its way: ok %v, toast %q", ok, s.Toast)
	}
	s.Finish(cmd().(Sent))
}
