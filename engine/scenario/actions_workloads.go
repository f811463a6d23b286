package scenario

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"rollscope/model/kind"
)

// ActionPartition holds a StatefulSet's rolling update at an ordinal.
const ActionPartition = "partition"

// ActionRetry goes through an aborted Rollout's steps again.
const ActionRetry = "retry"

// verbActions are the scenario's names of the registry's verbs.
var verbActions = []struct {
	verb   kind.Verb
	action string
}{
	{kind.SetImage, ActionSetImage}, {kind.SetEnv, ActionSetEnv}, {kind.Restart, ActionRestart},
	{kind.Undo, ActionUndo}, {kind.Scale, ActionScale}, {kind.Partition, ActionPartition},
	{kind.Promote, ActionPromote}, {kind.Abort, ActionAbort}, {kind.Retry, ActionRetry},
	{kind.Pause, ActionPause}, {kind.Resume, ActionResume},
}

// Verb is the registry's verb of the scripted action (setImage is
// set-image, promote with full: true promote-full); false for an action
// that is none (drain).
func (a Action) Verb() (kind.Verb, bool) {
	if a.Kind == ActionPromote && a.Full {
		return kind.PromoteFull, true
	}
	for _, va := range verbActions {
		if va.action == a.Kind {
			return va.verb, true
		}
	}
	return "", false
}

// takes are the scenario's names of the actions a kind takes: its entry's
// verbs, in the entry's order.
func takes(e kind.Entry) []string {
	var out []string
	for _, v := range e.Verbs {
		for _, va := range verbActions {
			if va.verb == v {
				out = append(out, va.action)
			}
		}
	}
	return out
}

// workloadTarget reads the target of a kind whose entry lists verbs
// (statefulset/NAME, daemonset/NAME), checking that the action is one of
// them and that the object is declared.
func (r *actionReader) workloadTarget(n *yaml.Node, where, action, text string, t Target, ns string) (Target, error) {
	entry, _ := t.Kind.Entry()
	apiKind, name := entry.Name, t.Name
	if actions := takes(entry); !contains(actions, action) {
		return Target{}, r.errorf(n, "%s target %q: %s does not apply to %ss (they take %s)", where, text, action, t.Kind, strings.Join(actions, ", "))
	}
	if _, ok := r.objs.find(apiKind, ns, name); !ok {
		return Target{}, r.errorf(n, "%s target %q: no %s %q in namespace %q among the objects (declare it under objects: or fix the name)", where, text, apiKind, name, ns)
	}
	return r.inNamespace(t, ns), nil
}

// partition reads {target: statefulset/NAME, partition: N}.
func (r *actionReader) partition(a *Action, n *yaml.Node, where string) error {
	f, err := r.targeted(a, n, where, "target", "partition", "namespace")
	if err != nil {
		return err
	}
	pn := f.get("partition")
	if pn == nil {
		return r.errorf(f.node, "%s has no partition (add partition: N, the lowest ordinal to update)", where)
	}
	v, err := r.integer(pn, where+".partition")
	if err != nil {
		return err
	}
	if v < 0 || v > maxReplicas {
		return r.errorf(pn, "%s.partition %d is out of range (use 0 to %d)", where, v, maxReplicas)
	}
	a.Partition = int32(v)
	return nil
}
