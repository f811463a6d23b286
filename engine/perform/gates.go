package perform

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/canary"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/argo"
	"rollscope/model/argo/analysis"
)

// PlanGates implements screen.Actions: each of the canary's metric gates
// with its query as it will be sent and what its provider answers now, so
// the confirmation shows them before anything is sent. A template that
// does not exist, a provider that does not answer or a condition that does
// not evaluate refuses the plan in one line, with the provider's own words.
func (c *Cluster) PlanGates(ctx context.Context, r action.Request) ([]action.GateReading, error) {
	if len(r.Canary.Gates) == 0 && len(r.Canary.Templates) == 0 {
		return nil, nil
	}
	out, err := c.planGates(ctx, r)
	return out, c.cfg.Explain(err)
}

func (c *Cluster) planGates(ctx context.Context, r action.Request) ([]action.GateReading, error) {
	cl := c.cfg.Client
	gates, from, err := canaryGates(ctx, cl, r.Namespace, r.Canary)
	if err != nil {
		return nil, err
	}
	if c.cfg.Metrics == nil {
		return nil, fmt.Errorf("this console cannot read the canary's metric gates (no metrics provider here) — nothing was sent")
	}
	d, err := cl.AppsV1().Deployments(r.Namespace).Get(ctx, r.Name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	ask := CanaryAsk(r)
	ask.Gates, ask.GateTemplates = gates, from
	cn, planned, err := canary.Plan(d, ask, c.cfg.Now())
	if err != nil {
		return nil, err
	}
	var images []string
	for _, ct := range planned.Spec.Template.Spec.Containers {
		images = append(images, ct.Image)
	}
	args := model.CanaryGateArgs(d.Namespace, d.Name, cn.Plan.Template, model.PodTemplateHash(&d.Spec.Template, d.Status.CollisionCount))
	out := make([]action.GateReading, 0, len(gates))
	for i, g := range gates {
		m, err := analysis.ResolveMetricArgs(g, args)
		if err != nil {
			return nil, fmt.Errorf("metric gate %s: %v — nothing was sent", g.Name, err)
		}
		read := action.GateReading{Metric: m.Name, Template: from[i], Query: gateQuery(m), Schedule: gateSchedule(m)}
		value, err := c.cfg.Metrics.Measure(ctx, from[i], m, 0, images)
		if err != nil {
			return nil, fmt.Errorf("metric gate %s cannot be read: %v — nothing was sent", g.Name, err)
		}
		if vs, ok := value.([]float64); ok && len(vs) == 0 {
			// Argo would err on every measurement of it: no sample to judge.
			return nil, fmt.Errorf("metric gate %s: its query returns no samples now (%s) — check its labels; nothing was sent", g.Name, read.Query)
		}
		if read.Phase, err = analysis.Evaluate(value, m); err != nil {
			return nil, fmt.Errorf("metric gate %s: %v — nothing was sent", g.Name, err)
		}
		b, _ := json.Marshal(value)
		read.Value = string(b)
		out = append(out, read)
	}
	return out, nil
}

// gateSchedule is when a step reads gate m, as Argo schedules a metric.
func gateSchedule(m argo.Metric) string {
	start := "once the step's pods are ready"
	if m.InitialDelay != "" {
		start = m.InitialDelay + " after the step's pods are ready"
	}
	n, ends := analysis.EffectiveCount(m)
	switch {
	case !ends:
		return "every " + m.Interval + " from " + start + ", until you promote (no count)"
	case m.Interval == "" || n == 1:
		return "one measurement " + start
	}
	return fmt.Sprintf("every %s, %d measurements %s", m.Interval, n, start)
}

// gateQuery is what gate m asks its provider: its Prometheus query, or
// the provider's name.
func gateQuery(m argo.Metric) string {
	if p, ok := argo.PrometheusOf(m); ok {
		return p.Query
	}
	return argo.ProviderName(m)
}
