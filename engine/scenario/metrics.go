package scenario

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"rollscope/engine/analysisrun"
	"rollscope/model/argo"
)

var metricKeys = []string{"metric", "values", "byImage"}

const metricExample = `- {metric: error-rate, values: [0.01, 0.02, 0.09]}`

// metrics reads what each AnalysisTemplate metric measures in the
// embedded cluster, and checks that every metric of every declared
// template has a series and every series a metric: the embedded cluster
// has no Prometheus to ask, so a metric without one would measure nothing
// true.
func (p *parser) metrics(n *yaml.Node, objs *objectSet) ([]analysisrun.Series, error) {
	items, err := p.sequence(n, "metrics", metricExample)
	if err != nil {
		return nil, err
	}
	templates := templateMetrics(objs)
	if err := p.templatesDeclared(objs); err != nil {
		return nil, err
	}
	var out []analysisrun.Series
	seen := map[string]int{}
	for i, it := range items {
		where := fmt.Sprintf("metrics[%d]", i)
		s, err := p.series(it, where)
		if err != nil {
			return nil, err
		}
		if first, dup := seen[s.Name()]; dup {
			return nil, p.errorf(it, "%s repeats metric %q (first on line %d; keep one)", where, s.Name(), first)
		}
		seen[s.Name()] = s.Line
		if !measured(templates, s) {
			return nil, p.errorf(it, "%s is for metric %q, which no AnalysisTemplate of the scenario has (its metrics: %s)", where, s.Name(), metricNames(templates))
		}
		out = append(out, s)
	}
	for _, t := range templates {
		for _, m := range t.tmpl.Spec.Metrics {
			if _, ok := analysisrun.Find(out, t.tmpl.Name, m.Name); !ok {
				return nil, p.errorAtFileLine(t.line, "AnalysisTemplate %q has metric %q, and the scenario says nothing of what it measures (the embedded cluster asks no provider: add under metrics: - {metric: %s, values: [0.01]})",
					t.tmpl.Name, m.Name, m.Name)
			}
		}
	}
	return out, nil
}

// series reads one entry of metrics:.
func (p *parser) series(n *yaml.Node, where string) (analysisrun.Series, error) {
	s := analysisrun.Series{Line: n.Line + p.offset}
	f, err := p.mapping(n, where, metricKeys...)
	if err != nil {
		return s, err
	}
	name, err := p.str(f.get("metric"), where+".metric")
	if err != nil {
		return s, err
	}
	if name == "" {
		return s, p.errorf(n, "%s has no metric (add metric: NAME, or TEMPLATE/NAME when two templates share a metric's name)", where)
	}
	if t, m, ok := strings.Cut(name, "/"); ok {
		s.Template, s.Metric = t, m
	} else {
		s.Metric = name
	}
	values, byImage := f.get("values"), f.get("byImage")
	switch {
	case values != nil && byImage != nil:
		return s, p.errorf(f.keys["byImage"], "%s has both values and byImage (keep one)", where)
	case values != nil:
		items, err := p.sequence(values, where+".values", "values: [0.01, 0.02]")
		if err != nil {
			return s, err
		}
		for j, it := range items {
			v, err := p.measuredValue(it, fmt.Sprintf("%s.values[%d]", where, j))
			if err != nil {
				return s, err
			}
			s.Values = append(s.Values, v)
		}
		if len(s.Values) == 0 {
			return s, p.errorf(values, "%s.values is empty (give at least one value; the last repeats)", where)
		}
	case byImage != nil:
		if byImage.Kind != yaml.MappingNode || len(byImage.Content) == 0 {
			return s, p.errorf(byImage, `%s.byImage must map image globs to values, like byImage: {"*:v2": 0.4, "*": 0.1}`, where)
		}
		for j := 0; j+1 < len(byImage.Content); j += 2 {
			k := resolve(byImage.Content[j])
			v, err := p.measuredValue(resolve(byImage.Content[j+1]), fmt.Sprintf("%s.byImage[%q]", where, k.Value))
			if err != nil {
				return s, err
			}
			s.ByImage = append(s.ByImage, analysisrun.ImageValue{Match: k.Value, Value: v})
		}
	default:
		return s, p.errorf(n, "%s says nothing of what %q measures (add values: [0.01, 0.02] or byImage: {\"*\": 0.01})", where, name)
	}
	return s, nil
}

// measuredValue is one measurement: a value, or {error: "why"} for a
// measurement whose provider fails.
func (p *parser) measuredValue(n *yaml.Node, where string) (analysisrun.Value, error) {
	if n.Kind == yaml.MappingNode {
		if f, err := p.mapping(n, where, "error"); err == nil && f.get("error") != nil {
			msg, err := p.str(f.get("error"), where+".error")
			if err != nil || msg == "" {
				return analysisrun.Value{}, p.errorf(n, "%s.error must say what failed, like {error: \"connection refused\"}", where)
			}
			return analysisrun.Value{Error: msg}, nil
		}
	}
	var raw any
	if err := n.Decode(&raw); err != nil {
		return analysisrun.Value{}, p.errorf(n, "%s is not a value: %s", where, oneLine(err.Error()))
	}
	v, err := analysisrun.Normalize(raw)
	if err != nil {
		return analysisrun.Value{}, p.errorf(n, "%s cannot be a measurement (%s); write a number, text, or a list or map of them", where, oneLine(err.Error()))
	}
	return analysisrun.Value{Value: v}, nil
}

// declaredTemplate is an AnalysisTemplate of the scenario and the line of
// its name.
type declaredTemplate struct {
	tmpl *argo.AnalysisTemplate
	line int
}

func templateMetrics(objs *objectSet) []declaredTemplate {
	var out []declaredTemplate
	for _, o := range objs.list {
		if t, ok := o.(*argo.AnalysisTemplate); ok {
			out = append(out, declaredTemplate{t, objs.byKey[objectKey{"AnalysisTemplate", t.Namespace, t.Name}].line})
		}
	}
	return out
}

func measured(templates []declaredTemplate, s analysisrun.Series) bool {
	for _, t := range templates {
		if s.Template != "" && s.Template != t.tmpl.Name {
			continue
		}
		for _, m := range t.tmpl.Spec.Metrics {
			if m.Name == s.Metric {
				return true
			}
		}
	}
	return false
}

func metricNames(templates []declaredTemplate) string {
	var names []string
	for _, t := range templates {
		for _, m := range t.tmpl.Spec.Metrics {
			names = append(names, t.tmpl.Name+"/"+m.Name)
		}
	}
	if len(names) == 0 {
		return "none; declare an AnalysisTemplate under objects:"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// templatesDeclared refuses a Rollout whose analysis names an
// AnalysisTemplate the scenario does not declare: Argo's controller would
// wait on it for ever.
func (p *parser) templatesDeclared(objs *objectSet) error {
	for _, o := range objs.list {
		ro, ok := o.(*argo.Rollout)
		if !ok || ro.Spec.Strategy.Canary == nil {
			continue
		}
		uses := []*argo.RolloutAnalysis{ro.Spec.Strategy.Canary.Analysis}
		for _, st := range ro.Spec.Strategy.Canary.Steps {
			uses = append(uses, st.Analysis)
		}
		for _, a := range uses {
			if a == nil {
				continue
			}
			for _, t := range a.Templates {
				if _, ok := objs.find("AnalysisTemplate", ro.Namespace, t.TemplateName); !ok {
					return p.errorAtFileLine(objs.byKey[objectKey{"Rollout", ro.Namespace, ro.Name}].line,
						"Rollout %q runs AnalysisTemplate %q, which the scenario does not declare (add it under objects:, kind: AnalysisTemplate)", ro.Name, t.TemplateName)
				}
			}
		}
	}
	return nil
}
