package scenario

import (
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/drain"
)

// rollNodesKeys are the options of rollNodes, as kops rolling-update spells
// its flags; group is the only one required.
var rollNodesKeys = []string{"group", "step", "maxSurge", "maxUnavailable", "interval", "drainTimeout", "validationTimeout"}

// rollNodes reads `rollNodes: GROUP` or `rollNodes: {group: GROUP, ...options}`.
func (r *actionReader) rollNodes(a *Action, n *yaml.Node, where string) error {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		var err error
		a.Group, err = r.groupName(n, where)
		return err
	}
	f, err := r.mapping(n, where, rollNodesKeys...)
	if err != nil {
		return err
	}
	if f.get("group") == nil {
		return r.errorf(n, "%s has no group (add group: NAME)", where)
	}
	if a.Group, err = r.groupName(f.get("group"), where+".group"); err != nil {
		return err
	}
	o := &a.Roll
	if v := f.get("step"); v != nil {
		if o.Step, err = r.boolean(v, where+".step"); err != nil {
			return err
		}
	}
	// A percentage above 100% is refused here as noderoll.Resolve would
	// refuse it when the roll starts: better before anything runs.
	if v := f.get("maxSurge"); v != nil {
		if o.MaxSurge, err = r.intOrPercent(v, where+".maxSurge", 100); err != nil {
			return err
		}
	}
	if v := f.get("maxUnavailable"); v != nil {
		if o.MaxUnavailable, err = r.intOrPercent(v, where+".maxUnavailable", 100); err != nil {
			return err
		}
	}
	if err := r.checkConcurrency(f, a, where); err != nil {
		return err
	}
	durations := []struct {
		key string
		dst *drain.Duration
	}{{"interval", &o.Interval}, {"drainTimeout", &o.DrainTimeout}, {"validationTimeout", &o.ValidationTimeout}}
	for _, d := range durations {
		if *d.dst, err = r.positiveDuration(f.get(d.key), where+"."+d.key); err != nil {
			return err
		}
	}
	return nil
}

// checkConcurrency refuses a roll that could never replace a node: no
// surge and no unavailability, counting the group's own settings for the
// one the action leaves out.
func (r *actionReader) checkConcurrency(f *fields, a *Action, where string) error {
	surge, unavailable := a.Roll.MaxSurge, a.Roll.MaxUnavailable
	if surge == nil && unavailable == nil {
		return nil
	}
	for _, g := range r.sc.NodeGroups {
		if g.Name == a.Group {
			surge, unavailable = orElse(surge, g.MaxSurge), orElse(unavailable, g.MaxUnavailable)
		}
	}
	if noSurge(surge) && unavailable != nil && unavailable.Type == intstr.Int && unavailable.IntVal == 0 {
		at := f.get("maxUnavailable")
		if at == nil {
			at = f.get("maxSurge")
		}
		return r.errorf(at, "%s: maxSurge and maxUnavailable are both 0 for group %q, so no node could ever be replaced (raise one of them)", where, a.Group)
	}
	return nil
}

// orElse returns the first of its arguments that is set.
func orElse(v, fallback *intstr.IntOrString) *intstr.IntOrString {
	if v != nil {
		return v
	}
	return fallback
}

// noSurge reports whether a maxSurge resolves to no node whatever the group's
// size: unset, 0 or "0%" (a surge percentage rounds up).
func noSurge(v *intstr.IntOrString) bool {
	return v == nil || (v.Type == intstr.Int && v.IntVal == 0) || (v.Type == intstr.String && strings.TrimSuffix(v.StrVal, "%") == "0")
}

// positiveDuration reads an optional duration that must be above zero: a
// zero in noderoll.Options means kops' default, which the file did not say.
func (r *actionReader) positiveDuration(n *yaml.Node, where string) (drain.Duration, error) {
	if n == nil {
		return 0, nil
	}
	d, err := r.duration(n, where)
	if err != nil {
		return 0, err
	}
	if d == 0 {
		return 0, r.errorf(n, "%s is 0 (write a positive duration like \"30s\", or leave it out for kops' default)", where)
	}
	return drain.Duration(d), nil
}

// groupName reads a declared node group's name, bare or as {group: NAME}.
func (r *actionReader) groupName(n *yaml.Node, where string) (string, error) {
	group, at, err := r.scalarOr(n, where, "group")
	if err != nil {
		return "", err
	}
	var names []string
	for _, g := range r.sc.NodeGroups {
		names = append(names, g.Name)
	}
	if !contains(names, group) {
		known := strings.Join(names, ", ")
		if known == "" {
			known = "none declared; add nodeGroups:"
		}
		return "", r.errorf(at, "%s: no node group %q (groups: %s)", strings.TrimSuffix(where, ".group"), group, known)
	}
	return group, nil
}

// checkSteps refuses a nextNode with no stepped roll of its group at or
// before its time: it would have nothing to continue. actions and items are
// in file order.
func (r *actionReader) checkSteps(actions []Action, items []*yaml.Node) error {
	for i, a := range actions {
		if a.Kind != ActionNextNode {
			continue
		}
		stepped := false
		for _, b := range actions {
			if b.Kind == ActionRollNodes && b.Group == a.Group && b.Roll.Step && (b.At < a.At || (b.At == a.At && b.Line < a.Line)) {
				stepped = true
			}
		}
		if !stepped {
			return r.errorf(items[i], "actions[%d].nextNode: no stepped roll of group %q before it (add rollNodes: {group: %s, step: true} at an earlier time; a roll without step goes on by itself)",
				i, a.Group, a.Group)
		}
	}
	return nil
}
