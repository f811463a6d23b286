package scenario

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"rollscope/model/kind"
)

// ActionPartition holds a StatefulSet's rolling update at an ordinal.
const ActionPartition = "partition"

// workloadActions are the actions kubectl has for each of the two kinds.
var workloadActions = map[kind.Kind][]string{
	kind.StatefulSet: {ActionSetImage, ActionSetEnv, ActionRestart, ActionUndo, ActionScale, ActionPartition},
	kind.DaemonSet:   {ActionSetImage, ActionSetEnv, ActionRestart, ActionUndo},
}

// workloadTarget reads a statefulset/NAME or daemonset/NAME target, checking
// that the action applies to the kind and that the object is declared.
func (r *actionReader) workloadTarget(n *yaml.Node, where, action, text string, t Target, ns string) (Target, error) {
	entry, _ := t.Kind.Entry()
	apiKind, name := entry.Name, t.Name
	if !contains(workloadActions[t.Kind], action) {
		return Target{}, r.errorf(n, "%s target %q: %s does not apply to %ss (they take %s)", where, text, action, t.Kind, strings.Join(workloadActions[t.Kind], ", "))
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
