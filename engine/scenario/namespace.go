package scenario

import (
	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"
)

// An action's namespace: `namespace: billing` beside its target, for a
// scenario whose objects live in several namespaces. Left out, the target is
// in the scenario's namespace.

// NamespaceOr is the target's namespace, or home when it is the scenario's
// own (home).
func (t Target) NamespaceOr(home string) string {
	if t.Namespace == "" {
		return home
	}
	return t.Namespace
}

// inNamespace sets t's namespace, leaving it empty for the scenario's own so
// that scenarios of one namespace parse as they always have.
func (r *actionReader) inNamespace(t Target, ns string) Target {
	if ns != r.sc.Namespace {
		t.Namespace = ns
	}
	return t
}

// targeted reads an action written as a mapping of the keys known, and
// sets its target from the mapping's target and namespace; the other keys
// are the action's to read.
func (r *actionReader) targeted(a *Action, n *yaml.Node, where string, known ...string) (*fields, error) {
	f, err := r.mapping(n, where, known...)
	if err != nil {
		return nil, err
	}
	a.Target, err = r.targetOf(f, where, a.Kind)
	return f, err
}

// containerTargeted is targeted for an action on one container of its
// target, which it sets too.
func (r *actionReader) containerTargeted(a *Action, n *yaml.Node, where string, known ...string) (*fields, error) {
	f, err := r.targeted(a, n, where, known...)
	if err != nil {
		return nil, err
	}
	a.Container, err = r.container(f, a.Target, where)
	return f, err
}

// targetOf reads the target of a mapping action, in the namespace it names.
func (r *actionReader) targetOf(f *fields, where, action string) (Target, error) {
	ns := r.sc.Namespace
	if n := f.get("namespace"); n != nil {
		s, err := r.str(n, where+".namespace")
		if err != nil {
			return Target{}, err
		}
		if len(validation.IsDNS1123Label(s)) > 0 {
			return Target{}, r.errorf(n, "%s.namespace %q is not a namespace name (lower-case letters, digits and '-', like billing)", where, s)
		}
		ns = s
	}
	return r.targetIn(f.get("target"), where, action, ns)
}

// bareTarget reads an action whose one argument is its target, written bare
// (pause: deployment/web) or with a namespace (pause: {target:
// deployment/ledger, namespace: billing}).
func (r *actionReader) bareTarget(n *yaml.Node, where, action string) (Target, error) {
	if n = resolve(n); n != nil && n.Kind == yaml.MappingNode {
		f, err := r.mapping(n, where, "target", "namespace")
		if err != nil {
			return Target{}, err
		}
		return r.targetOf(f, where, action)
	}
	return r.target(n, where, action)
}
