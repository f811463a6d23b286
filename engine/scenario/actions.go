package scenario

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"

	"rollscope/engine/nodegroup"
	"rollscope/model"
	"rollscope/model/kind"
)

var actionKinds = []string{ActionSetImage, ActionSetEnv, ActionPause, ActionResume, ActionUndo, ActionAbort, ActionScale, ActionRestart, ActionDrain, ActionRollNodes, ActionNextNode, ActionCanary, ActionPromote, ActionPartition, ActionRetry}

// deploymentOnly are the actions that ReplicationControllers have no notion of.
var deploymentOnly = []string{ActionPause, ActionResume, ActionUndo, ActionRestart, ActionCanary, ActionPromote}

// actionReader reads the actions list against what the scenario declares.
type actionReader struct {
	*parser
	sc   *Scenario
	objs *objectSet
}

func (p *parser) actions(n *yaml.Node, sc *Scenario, objs *objectSet) ([]Action, error) {
	items, err := p.sequence(n, "actions", "- {at: 60s, pause: deployment/frontend}")
	if err != nil {
		return nil, err
	}
	r := &actionReader{parser: p, sc: sc, objs: objs}
	actions := make([]Action, 0, len(items))
	for i, it := range items {
		a, err := r.action(it, fmt.Sprintf("actions[%d]", i))
		if err != nil {
			return nil, err
		}
		actions = append(actions, a)
	}
	if err := r.checkSteps(actions, items); err != nil {
		return nil, err
	}
	sort.SliceStable(actions, func(i, j int) bool { return actions[i].At < actions[j].At })
	return actions, nil
}

func (r *actionReader) action(n *yaml.Node, where string) (Action, error) {
	a := Action{Line: n.Line + r.offset}
	f, err := r.mapping(n, where, append([]string{"at"}, actionKinds...)...)
	if err != nil {
		return a, err
	}
	at := f.get("at")
	if at == nil {
		return a, r.errorf(f.node, "%s has no at (add the time it happens, like at: 60s)", where)
	}
	if a.At, err = r.duration(at, where+".at"); err != nil {
		return a, err
	}
	for _, key := range f.order {
		if key == "at" {
			continue
		}
		if a.Kind != "" {
			return a, r.errorf(f.keys[key], "%s has both %s and %s (write one action per entry, each with its own at)", where, a.Kind, key)
		}
		a.Kind = key
	}
	if a.Kind == "" {
		return a, r.errorf(f.node, "%s names no action (add one of: %s)", where, strings.Join(actionKinds, ", "))
	}
	where += "." + a.Kind
	body := f.vals[a.Kind]
	switch a.Kind {
	case ActionSetImage:
		err = r.setImage(&a, body, where)
	case ActionSetEnv:
		err = r.setEnv(&a, body, where)
	case ActionPause, ActionResume, ActionAbort, ActionRestart, ActionRetry:
		a.Target, err = r.bareTarget(body, where, a.Kind)
	case ActionUndo:
		err = r.undo(&a, body, where)
	case ActionScale:
		err = r.scale(&a, body, where)
	case ActionDrain:
		err = r.drain(&a, body, where)
	case ActionRollNodes:
		err = r.rollNodes(&a, body, where)
	case ActionNextNode:
		a.Group, err = r.groupName(body, where)
	case ActionCanary:
		err = r.canary(&a, body, where)
	case ActionPromote:
		err = r.promote(&a, body, where)
	case ActionPartition:
		err = r.partition(&a, body, where)
	}
	return a, err
}

// target reads "kind/name" and checks that the object is declared in the
// scenario's namespace and that the action applies to its kind.
func (r *actionReader) target(n *yaml.Node, where, action string) (Target, error) {
	return r.targetIn(n, where, action, r.sc.Namespace)
}

// targetIn is target in namespace ns.
func (r *actionReader) targetIn(n *yaml.Node, where, action, ns string) (Target, error) {
	n = resolve(n)
	if isNull(n) {
		return Target{}, r.errorf(n, "%s has no target (write it like deployment/frontend)", where)
	}
	text, err := r.str(n, where)
	if err != nil {
		return Target{}, err
	}
	ref, err := kind.Parse(text)
	if i := strings.IndexAny(text, "/ \t"); i < 0 || text[i] != '/' || errors.Is(err, kind.ErrNoName) {
		return Target{}, r.errorf(n, "%s target %q must be kind/name (write it like deployment/frontend or rc/frontend)", where, text)
	}
	if err != nil {
		return Target{}, r.errorf(n, "%s target %q: actions apply to deployments, replication controllers, statefulsets and daemonsets (write deployment/NAME, rc/NAME, statefulset/NAME or daemonset/NAME)", where, text)
	}
	t, name := Target{Kind: ref.Kind, Name: ref.Name}, ref.Name
	entry, _ := ref.Kind.Entry()
	apiKind := entry.Name
	if len(entry.Verbs) > 0 {
		return r.workloadTarget(n, where, action, text, t, ns)
	}
	if action == ActionPartition {
		return Target{}, r.errorf(n, "%s target %q: partition applies to statefulsets only (write statefulset/NAME)", where, text)
	}
	if action == ActionRetry {
		return Target{}, r.errorf(n, "%s target %q: retry applies to Argo Rollouts only (write rollout/NAME)", where, text)
	}
	if t.Kind == kind.ReplicationController && contains(deploymentOnly, action) {
		return Target{}, r.errorf(n, "%s target %q: %s applies to deployments only (ReplicationControllers have no rollout history or pause)", where, text, action)
	}
	if _, ok := r.objs.find(apiKind, ns, name); !ok {
		return Target{}, r.errorf(n, "%s target %q: no %s %q in namespace %q among the objects (declare it under objects: or fix the name)", where, text, apiKind, name, ns)
	}
	return r.inNamespace(t, ns), nil
}

// template returns the pod template of a declared target.
func (r *actionReader) template(t Target) *corev1.PodTemplateSpec {
	entry, _ := t.Kind.Entry()
	obj, _ := r.objs.find(entry.Name, t.NamespaceOr(r.sc.Namespace), t.Name)
	if w, ok := kind.Of(obj); ok {
		return w.Template()
	}
	return nil
}

// container resolves the container an action changes: the named one, which
// must exist, or the only one when the template has a single container.
func (r *actionReader) container(f *fields, t Target, where string) (string, error) {
	tmpl := r.template(t)
	var names []string
	if tmpl != nil {
		for _, c := range tmpl.Spec.InitContainers {
			names = append(names, c.Name)
		}
		for _, c := range tmpl.Spec.Containers {
			names = append(names, c.Name)
		}
	}
	n := f.get("container")
	if n == nil {
		if tmpl != nil && len(tmpl.Spec.Containers) == 1 && len(tmpl.Spec.InitContainers) == 0 {
			return tmpl.Spec.Containers[0].Name, nil
		}
		return "", r.errorf(f.node, "%s has no container and %s has several (add container: with one of: %s)", where, t, strings.Join(names, ", "))
	}
	name, err := r.str(n, where+".container")
	if err != nil {
		return "", err
	}
	if !contains(names, name) {
		return "", r.errorf(n, "%s: %s has no container %q (its containers: %s)", where, t, name, strings.Join(names, ", "))
	}
	return name, nil
}

func (r *actionReader) setImage(a *Action, n *yaml.Node, where string) error {
	f, err := r.containerTargeted(a, n, where, "target", "container", "image", "namespace")
	if err != nil {
		return err
	}
	img := f.get("image")
	if img == nil {
		return r.errorf(f.node, "%s has no image (add image: REPOSITORY:TAG)", where)
	}
	if a.Image, err = r.str(img, where+".image"); err != nil {
		return err
	}
	if err := model.CheckImage(a.Image); err != nil {
		return r.errorf(img, "%s: %v", where, err)
	}
	return nil
}

func (r *actionReader) setEnv(a *Action, n *yaml.Node, where string) error {
	f, err := r.containerTargeted(a, n, where, "target", "container", "env", "namespace")
	if err != nil {
		return err
	}
	env, err := r.stringMap(f.get("env"), where+".env")
	if err != nil {
		return err
	}
	if env == nil || len(env.entries) == 0 {
		return r.errorf(firstNode(f.get("env"), f.node), "%s has no env (add env: {NAME: value}; an empty value removes NAME)", where)
	}
	for _, e := range env.entries {
		if err := model.CheckEnvName(e.key); err != nil {
			return r.errorf(e.keyNode, "%s.env: %v", where, err)
		}
	}
	a.Env = env.values
	return nil
}

func (r *actionReader) undo(a *Action, n *yaml.Node, where string) error {
	if n = resolve(n); n != nil && n.Kind == yaml.ScalarNode {
		var err error
		a.Target, err = r.target(n, where, a.Kind)
		return err
	}
	f, err := r.targeted(a, n, where, "target", "toRevision", "namespace")
	if err != nil {
		return err
	}
	if rev := f.get("toRevision"); rev != nil {
		if a.ToRevision, err = r.integer(rev, where+".toRevision"); err != nil {
			return err
		}
		if a.ToRevision < 0 {
			return r.errorf(rev, "%s.toRevision %d is negative (use a revision number from the history, or 0 for the previous one)", where, a.ToRevision)
		}
	}
	return nil
}

func (r *actionReader) scale(a *Action, n *yaml.Node, where string) error {
	f, err := r.targeted(a, n, where, "target", "replicas", "namespace")
	if err != nil {
		return err
	}
	rn := f.get("replicas")
	if rn == nil {
		return r.errorf(f.node, "%s has no replicas (add replicas: N)", where)
	}
	v, err := r.integer(rn, where+".replicas")
	if err != nil {
		return err
	}
	if v < 0 || v > maxReplicas {
		return r.errorf(rn, "%s.replicas %d is out of range (use 0 to %d)", where, v, maxReplicas)
	}
	a.Replicas = int32(v)
	return nil
}

// scalarOr reads an action whose one argument may be written bare
// (drain: nodes-0) or as a mapping (drain: {node: nodes-0}).
func (r *actionReader) scalarOr(n *yaml.Node, where, key string) (string, *yaml.Node, error) {
	n = resolve(n)
	if n != nil && n.Kind == yaml.MappingNode {
		f, err := r.mapping(n, where, key)
		if err != nil {
			return "", nil, err
		}
		v := f.get(key)
		if v == nil {
			return "", nil, r.errorf(n, "%s has no %s (add %s: NAME)", where, key, key)
		}
		s, err := r.str(v, where+"."+key)
		return s, v, err
	}
	if isNull(n) {
		return "", nil, r.errorf(n, "%s has no %s (write it like %s: {%s: NAME})", where, key, where, key)
	}
	s, err := r.str(n, where)
	return s, n, err
}

func (r *actionReader) drain(a *Action, n *yaml.Node, where string) error {
	node, at, err := r.scalarOr(n, where, "node")
	if err != nil {
		return err
	}
	if !startsWithNode(r.sc.NodeGroups, node) {
		return r.errorf(at, "%s: node %q is not among the nodes the cluster starts with (nodes are named <group>-<index>: %s)", where, node, nodeRanges(r.sc.NodeGroups))
	}
	a.Node = node
	return nil
}

// startsWithNode reports whether name is "<group>-<i>" for a declared group
// and an index below its size: the nodes that exist when the run begins.
func startsWithNode(groups []nodegroup.Group, name string) bool {
	for _, g := range groups {
		idx, ok := strings.CutPrefix(name, g.Name+"-")
		if !ok || idx == "" || (len(idx) > 1 && idx[0] == '0') {
			continue
		}
		i, err := strconv.Atoi(idx)
		if err == nil && i >= 0 && i < g.Size && strconv.Itoa(i) == idx {
			return true
		}
	}
	return false
}

func nodeRanges(groups []nodegroup.Group) string {
	var parts []string
	for _, g := range groups {
		switch g.Size {
		case 0:
		case 1:
			parts = append(parts, g.Name+"-0")
		default:
			parts = append(parts, fmt.Sprintf("%s-0 to %s-%d", g.Name, g.Name, g.Size-1))
		}
	}
	if len(parts) == 0 {
		return "no nodes are declared; add nodeGroups:"
	}
	return strings.Join(parts, ", ")
}
