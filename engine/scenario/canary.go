package scenario

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"rollscope/model"
)

// canaryKeys are a canary's fields; target, steps and one of image or env
// are required.
var canaryKeys = []string{"target", "namespace", "container", "image", "env", "steps", "hold", "onFailure", "analysis"}

// canary reads `canary: {target: deployment/web, container: app, image:
// "registry.local/web:v2", steps: [1, "25%"], hold: pause, onFailure: pause,
// analysis: [error-rate]}` — analysis names AnalysisTemplates of the
// scenario whose metrics gate every step, read from its metrics: series.
// Steps are checked against the deployment's replicas when it starts,
// since the deployment may be scaled before then.
func (r *actionReader) canary(a *Action, n *yaml.Node, where string) error {
	f, err := r.containerTargeted(a, n, where, canaryKeys...)
	if err != nil {
		return err
	}
	img, env := f.get("image"), f.get("env")
	switch {
	case img != nil && env != nil:
		return r.errorf(env, "%s has both image and env (a canary changes one thing: write one of them)", where)
	case img != nil:
		if a.Image, err = r.str(img, where+".image"); err != nil {
			return err
		}
		if err := model.CheckImage(a.Image); err != nil {
			return r.errorf(img, "%s: %v", where, err)
		}
	case env != nil:
		m, err := r.stringMap(env, where+".env")
		if err != nil {
			return err
		}
		if m == nil || len(m.entries) != 1 {
			return r.errorf(env, "%s.env must set exactly one variable, like env: {LOG_LEVEL: debug} (an empty value removes it)", where)
		}
		e := m.entries[0]
		if err := model.CheckEnvName(e.key); err != nil {
			return r.errorf(e.keyNode, "%s.env: %v", where, err)
		}
		a.Env = m.values
	default:
		return r.errorf(f.node, "%s has no image or env (add image: REPOSITORY:TAG, or env: {NAME: value})", where)
	}
	steps := f.get("steps")
	if steps == nil {
		return r.errorf(f.node, "%s has no steps (add steps: [1, \"25%%\"]; the last step, 100%%, is added)", where)
	}
	if a.Canary.Steps, err = r.canaryList(steps, where+".steps"); err != nil {
		return err
	}
	// Sizes are checked against the replicas when the canary starts; the
	// spelling is checked now.
	for i, sp := range a.Canary.Steps {
		if err := model.CheckCanaryStep(sp); err != nil {
			return r.errorf(steps, "%s.steps[%d]: %v", where, i, err)
		}
		if sp == "100%" && i != len(a.Canary.Steps)-1 {
			return r.errorf(steps, "%s.steps[%d]: 100%% must be the last step (the canary ends there)", where, i)
		}
	}
	if h := f.get("hold"); h != nil {
		if a.Canary.Holds, err = r.canaryList(h, where+".hold"); err != nil {
			return err
		}
		for i, hold := range a.Canary.Holds {
			if err := model.CheckCanaryHold(hold); err != nil {
				return r.errorf(h, "%s.hold[%d]: %v", where, i, err)
			}
		}
	}
	if an := f.get("analysis"); an != nil {
		if a.Canary.Analysis, err = r.canaryList(an, where+".analysis"); err != nil {
			return err
		}
		ns := a.Target.Namespace
		if ns == "" {
			ns = r.sc.Namespace
		}
		for i, name := range a.Canary.Analysis {
			if _, ok := r.objs.find("AnalysisTemplate", ns, name); !ok {
				return r.errorf(an, "%s.analysis[%d] names AnalysisTemplate %q, which the scenario does not declare (add it under objects:, kind: AnalysisTemplate)", where, i, name)
			}
		}
	}
	if o := f.get("onFailure"); o != nil {
		s, err := r.str(o, where+".onFailure")
		if err != nil {
			return err
		}
		if a.Canary.OnFailure, err = model.CheckCanaryOnFailure(s); err != nil {
			return r.errorf(o, "%s: %v", where, err)
		}
	}
	return nil
}

// canaryList reads one value or a list of them as text; whole numbers are
// kept as written (steps: [1, "25%"]).
func (r *actionReader) canaryList(n *yaml.Node, where string) ([]string, error) {
	n = resolve(n)
	if n == nil {
		return nil, nil
	}
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	var out []string
	for i, it := range items {
		s, err := r.str(it, where+"["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, r.errorf(n, "%s is empty", where)
	}
	return out, nil
}

// promote reads `promote: deployment/web` (the next step) or
// `promote: {target: deployment/web, full: true}` (straight to 100%).
func (r *actionReader) promote(a *Action, n *yaml.Node, where string) error {
	if n = resolve(n); n != nil && n.Kind == yaml.MappingNode {
		f, err := r.targeted(a, n, where, "target", "full", "namespace")
		if err != nil {
			return err
		}
		if v := f.get("full"); v != nil {
			a.Full, err = r.boolean(v, where+".full")
		}
		return err
	}
	var err error
	a.Target, err = r.target(n, where, a.Kind)
	return err
}
