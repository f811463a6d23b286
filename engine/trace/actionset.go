package trace

import (
	"sort"
	"strconv"
	"strings"

	"rollscope/engine/scenario"
)

// field is one thing an action set, as a trace line shows it: camelCase
// names as Kubernetes spells its fields; number values are written bare in
// JSON.
type field struct {
	name, value string
	number      bool
}

// Script hands the writer the scenario's actions, in the order they run
// (the order of scenario.Scenario.Actions): each Action line then says
// what its action set — the image, the replicas, the revision.
func (w *Writer) Script(actions []scenario.Action) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.script = append([]scenario.Action(nil), actions...)
}

// nextSet takes the next scripted action when it is of kind, and says
// what it set; none for an action the script does not know.
func (w *Writer) nextSet(kind string) []field {
	if len(w.script) == 0 || w.script[0].Kind != kind {
		return nil
	}
	a := w.script[0]
	w.script = w.script[1:]
	return setBy(a)
}

// setBy names the target's namespace first when the action names one other
// than the scenario's; a scenario of one namespace keeps its lines as they were.
func setBy(a scenario.Action) []field {
	str := func(name, v string) field { return field{name: name, value: v} }
	if ns := a.Target.Namespace; ns != "" {
		return append([]field{str("namespace", ns)}, setOf(a)...)
	}
	return setOf(a)
}

func setOf(a scenario.Action) []field {
	str := func(name, v string) field { return field{name: name, value: v} }
	num := func(name string, v int64) field {
		return field{name: name, value: strconv.FormatInt(v, 10), number: true}
	}
	switch a.Kind {
	case scenario.ActionSetImage:
		return []field{str("container", a.Container), str("image", a.Image)}
	case scenario.ActionSetEnv:
		names := make([]string, 0, len(a.Env))
		for n := range a.Env {
			names = append(names, n)
		}
		sort.Strings(names)
		env := make([]string, 0, len(names))
		for _, n := range names {
			if v := a.Env[n]; v == "" {
				env = append(env, n+"-")
			} else {
				env = append(env, n+"="+v)
			}
		}
		return []field{str("container", a.Container), str("env", strings.Join(env, ","))}
	case scenario.ActionScale:
		return []field{num("replicas", int64(a.Replicas))}
	case scenario.ActionUndo:
		return []field{num("toRevision", a.ToRevision)}
	case scenario.ActionDrain:
		return []field{str("node", a.Node)}
	case scenario.ActionRollNodes, scenario.ActionNextNode:
		return []field{str("group", a.Group)}
	}
	return nil
}
