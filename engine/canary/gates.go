package canary

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"

	"rollscope/engine/actions"
	"rollscope/engine/analysisrun"
	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/argo/analysis"
)

// measureTimeout bounds one pass of a step's measurements, so that a
// provider that never answers holds a worker no longer than this: the
// measurement is then an error, counted towards consecutiveErrorLimit.
const measureTimeout = 20 * time.Second

// analyse takes the measurements of the plan's metric gates that are due
// at now, once the step's pods are all ready (Argo's step analysis starts
// when the step is reached, after its pods are up), and judges them as
// Argo's AnalysisRun controller does (engine/analysisrun.Reconcile): the
// step's analysis lives in cn.State.Analysis. It reports whether that
// changed, and when the next measurement is due (ok false: none).
func (c *Controller) analyse(ctx context.Context, d *appsv1.Deployment, rss []*appsv1.ReplicaSet, cn *model.Canary, now time.Time) (changed bool, next time.Time, ok bool) {
	run := &argo.AnalysisRun{}
	if cn.State.Analysis != nil {
		run.Status = *cn.State.Analysis.DeepCopy()
	}
	if run.Status.Phase.Completed() {
		return false, time.Time{}, false
	}
	canaryHash, stableHash, images := cn.Plan.Template, "", []string(nil)
	if newRS := model.FindNewReplicaSet(d, rss); newRS != nil {
		for _, ct := range newRS.Spec.Template.Spec.Containers {
			images = append(images, ct.Image)
		}
	}
	if stable, _, err := actions.StableReplicaSet(d, rss); err == nil {
		stableHash = stable.Labels[appsv1.DefaultDeploymentUniqueLabelKey]
	}
	args := model.CanaryGateArgs(d.Namespace, d.Name, canaryHash, stableHash)
	templates := map[string]string{}
	var events []analysisrun.Event
	for i, g := range cn.Plan.Gates {
		m, err := analysis.ResolveMetricArgs(g, args)
		if err != nil {
			run.Status.Phase = argo.AnalysisPhaseError
			run.Status.Message = fmt.Sprintf("Unable to resolve metric arguments: %v", err)
			break
		}
		run.Spec.Metrics = append(run.Spec.Metrics, m)
		templates[m.Name] = cn.Plan.GateTemplate(i)
	}
	if !run.Status.Phase.Completed() {
		mctx, cancel := context.WithTimeout(ctx, measureTimeout)
		defer cancel()
		measure := func(m argo.Metric, n int) (any, error) {
			if c.metrics == nil {
				return nil, fmt.Errorf("this console reads no metrics: start it where its gates' Prometheus is reachable")
			}
			return c.metrics.Measure(mctx, templates[m.Name], m, n, images)
		}
		events, next, ok = analysisrun.Reconcile(run, now, measure)
	}
	if cn.State.Analysis != nil && equality.Semantic.DeepEqual(*cn.State.Analysis, run.Status) {
		return false, next, ok
	}
	cn.State.Analysis = &run.Status
	for _, e := range events {
		c.env.Events.Eventf(d, e.Type, "Canary"+e.Reason, "Canary step %d of %d: %s", cn.State.Step, cn.Plan.Last(), gateEventText(cn.Plan.Gates, run.Status, e))
	}
	return true, next, ok
}

// gateEventText is an analysis event in the console's words: a metric that
// ended not Successful says why.
func gateEventText(gates []argo.Metric, st argo.AnalysisRunStatus, e analysisrun.Event) string {
	if e.Type == corev1.EventTypeWarning {
		if ev := model.GateEvidence(gates, &st); ev != "" {
			return e.Message + " — " + ev
		}
	}
	return e.Message
}
