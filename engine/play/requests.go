package play

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"rollscope/engine/noderoll"
	"rollscope/engine/scenario"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/kind"
)

// ErrNotAnUpdate marks a scripted action a ReplicationController has no
// rolling-update meaning for.
var ErrNotAnUpdate = errors.New("not a rolling update action")

// requests are what a scripted action asks of the cluster, in the order
// they are sent: one request, except a setEnv of several variables, which
// sets them one by one in name order. Node and group names are the
// cluster's.
func (p Player) requests(a scenario.Action) ([]action.Request, error) {
	ns := p.namespace(a.Target)
	if a.Target.Kind == kind.ReplicationController {
		return rcRequests(a, ns)
	}
	if rs, ok, err := workloadRequests(a, ns); ok {
		return rs, err
	}
	r := action.Request{Namespace: ns, Name: a.Target.Name}
	switch a.Kind {
	case scenario.ActionSetImage:
		r.Action, r.Container, r.Image = action.SetImage, a.Container, a.Image
	case scenario.ActionSetEnv:
		return envRequests(r, a), nil
	case scenario.ActionPause:
		r.Action = action.Pause
	case scenario.ActionResume:
		r.Action = action.Resume
	case scenario.ActionUndo:
		r.Action, r.Revision = action.Undo, a.ToRevision
	case scenario.ActionScale:
		r.Action, r.Replicas = action.Scale, a.Replicas
	case scenario.ActionRestart:
		r.Action = action.Restart
	case scenario.ActionAbort:
		r.Action = action.Abort
	case scenario.ActionCanary, scenario.ActionPromote:
		return []action.Request{canaryRequest(r, a)}, nil
	case scenario.ActionDrain:
		node, err := mapName(p.Node, a.Node)
		if err != nil {
			return nil, err
		}
		// kubectl drain --ignore-daemonsets: the flag every node drain runbook adds.
		r = action.Request{Action: action.Drain, Nodes: []string{node}, Drain: action.DrainOptions{IgnoreDaemonSets: true}}
	case scenario.ActionRollNodes, scenario.ActionNextNode:
		group, err := mapName(p.Group, a.Group)
		if err != nil {
			return nil, err
		}
		r = action.Request{Action: action.NextStep, Name: group}
		if a.Kind == scenario.ActionRollNodes {
			r.Action, r.Roll = action.RollGroup, rollSettings(a.Roll)
		}
	default:
		return nil, fmt.Errorf("line %d: unknown action %q", a.Line, a.Kind)
	}
	return []action.Request{r}, nil
}

// StartsRollout reports whether a scripted action brings its target a new
// pod template, and with it the target's surge: pods brought up beside those
// it runs.
func StartsRollout(a scenario.Action) bool {
	rs, err := Player{}.requests(a)
	if err != nil {
		return false
	}
	for _, r := range rs {
		if r.Spec().StartsRollout {
			return true
		}
	}
	return false
}

// envRequests are setEnv's variables as kubectl set env's NAME=value, or
// NAME- for an empty value, which removes the variable; in name order so
// that a run does not depend on map order.
func envRequests(r action.Request, a scenario.Action) []action.Request {
	names := make([]string, 0, len(a.Env))
	for name := range a.Env {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]action.Request, 0, len(names))
	for _, name := range names {
		e := r
		e.Action, e.Container, e.Env = action.SetEnv, a.Container, name+"="+a.Env[name]
		if a.Env[name] == "" {
			e.Env = name + "-"
		}
		out = append(out, e)
	}
	return out
}

// rollSettings are a rollNodes action's options as the roll dialog would
// give them.
func rollSettings(o noderoll.Options) action.RollSettings {
	s := action.RollSettings{Step: o.Step, Interval: time.Duration(o.Interval),
		DrainTimeout: time.Duration(o.DrainTimeout), ValidationTimeout: time.Duration(o.ValidationTimeout)}
	if o.MaxSurge != nil {
		s.MaxSurge = o.MaxSurge.String()
	}
	if o.MaxUnavailable != nil {
		s.MaxUnavailable = o.MaxUnavailable.String()
	}
	return s
}

// rcRequests are a scripted action on a ReplicationController, as the RC
// view's keys send it: setImage asks the rolling-update controller for an
// update to the image (kubectl's defaults: maxSurge 1, maxUnavailable 0, a
// minute between scale-ups), abort asks for its rollback. The update runs
// wherever that controller runs, after the action has returned.
func rcRequests(a scenario.Action, namespace string) ([]action.Request, error) {
	r := action.Request{Namespace: namespace, Name: a.Target.Name}
	switch a.Kind {
	case scenario.ActionSetImage:
		r.Action, r.RCUpdate = action.RCUpdate, model.RCUpdateRequest{Old: a.Target.Name, Container: a.Container, Image: a.Image}
	case scenario.ActionAbort:
		r.Action = action.RCAbort
	default:
		return nil, fmt.Errorf("line %d: %s on %s: %w (ReplicationControllers take setImage, which starts a rolling update, and abort)", a.Line, a.Kind, a.Target, ErrNotAnUpdate)
	}
	return []action.Request{r}, nil
}

// namespace is where a target is: the namespace its action names, unless
// the run keeps every object in one namespace.
func (p Player) namespace(t scenario.Target) string {
	if p.OneNamespace {
		return p.Namespace
	}
	return t.NamespaceOr(p.Namespace)
}

func mapName(fn func(string) (string, error), name string) (string, error) {
	if fn == nil {
		return name, nil
	}
	return fn(name)
}
