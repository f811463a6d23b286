package analysisrun

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model/argo"
	"rollscope/model/argo/analysis"
	"rollscope/model/kind"
)

// Name is the component of the events it records: Argo's one controller
// runs Rollouts and AnalysisRuns alike.
const Name = "rollouts-controller"

// Controller runs AnalysisRuns in the embedded cluster. It implements
// control.Controller.
type Controller struct {
	env    *control.Env
	series []Series

	mu    sync.Mutex
	queue control.Queue
}

// New is the controller on env, measuring from series.
func New(env *control.Env, series []Series) *Controller { return &Controller{env: env, series: series} }

// Name implements control.Controller.
func (c *Controller) Name() string { return Name }

// Watches implements control.Controller: each AnalysisRun enqueues itself.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.mu.Lock()
	c.queue = q
	c.mu.Unlock()
	self := func(obj any) {
		if key := control.Key(obj); key != "" {
			q.Add(key)
		}
	}
	return map[control.Kind]cache.ResourceEventHandler{
		control.AnalysisRuns: cache.ResourceEventHandlerFuncs{AddFunc: self, UpdateFunc: func(_, cur any) { self(cur) }, DeleteFunc: self},
	}
}

// Sync implements control.Controller: one pass of Argo's
// reconcileAnalysisRun, the status written as a merge patch of what
// changed, and the run queued again for its next measurement.
func (c *Controller) Sync(ctx context.Context, key string) error {
	ix := c.env.Listers.AnalysisRuns
	if ix == nil {
		return nil
	}
	obj, exists, err := ix.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	cached, ok := obj.(*argo.AnalysisRun)
	if !ok || cached.DeletionTimestamp != nil || cached.Status.Phase.Completed() {
		return nil
	}
	run := cached.DeepCopy()
	now := c.env.Clock.Now()
	var events []Event
	var next time.Time
	again := false
	if metrics, err := c.resolved(run); err != nil {
		run.Status.Phase = argo.AnalysisPhaseError
		run.Status.Message = fmt.Sprintf("Unable to resolve metric arguments: %v", err)
		events = append(events, Event{corev1.EventTypeWarning, "AnalysisRunError", "Analysis Completed. Result: Error"})
	} else {
		// Argo assesses the resolved metrics and keeps the spec as it was.
		work := run.DeepCopy()
		work.Spec.Metrics = metrics
		events, next, again = Reconcile(work, now, c.measure(run))
		run.Status = work.Status
	}
	if err := c.patchStatus(ctx, cached, run); err != nil {
		return err
	}
	for _, e := range events {
		c.env.Events.Eventf(run, e.Type, e.Reason, "%s", e.Message)
	}
	if again {
		c.mu.Lock()
		q := c.queue
		c.mu.Unlock()
		if q != nil {
			q.AddAfter(key, max(next.Sub(now), 0))
		}
	}
	return nil
}

func (c *Controller) resolved(run *argo.AnalysisRun) ([]argo.Metric, error) {
	out := make([]argo.Metric, 0, len(run.Spec.Metrics))
	for _, m := range run.Spec.Metrics {
		r, err := analysis.ResolveMetricArgs(m, run.Spec.Args)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// patchStatus writes run's status as a merge patch of what changed from
// was's (AnalysisRuns have no status subresource).
func (c *Controller) patchStatus(ctx context.Context, was, run *argo.AnalysisRun) error {
	before, err := json.Marshal(map[string]any{"status": was.Status})
	if err != nil {
		return err
	}
	after, err := json.Marshal(map[string]any{"status": run.Status})
	if err != nil {
		return err
	}
	patch, err := jsonpatch.CreateMergePatch(before, after)
	if err != nil || string(patch) == "{}" {
		return err
	}
	if c.env.Dynamic == nil {
		return fmt.Errorf("analysisrun %s: no client for custom resources", run.Name)
	}
	_, err = c.env.Dynamic.Resource(argo.AnalysisRuns).Namespace(run.Namespace).Patch(ctx, run.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// measure answers run's metrics from the scenario's series: the series of
// the metric in one of the templates the run was made from (its Rollout's
// step or background analysis), else the one naming the metric alone,
// while the pods of the run's ReplicaSet run their images.
func (c *Controller) measure(run *argo.AnalysisRun) Measure {
	templates, images := c.origin(run)
	return func(m argo.Metric, n int) (any, error) {
		for _, t := range append(templates, "") {
			if s, ok := Find(c.series, t, m.Name); ok && (t == "" || s.Template == t) {
				return s.At(n, images)
			}
		}
		return nil, fmt.Errorf("the scenario gives no series for metric %q", m.Name)
	}
}

// origin is the templates run was made from and the images of the
// ReplicaSet it measures, read from its Rollout.
func (c *Controller) origin(run *argo.AnalysisRun) (templates, images []string) {
	ref := metav1.GetControllerOf(run)
	ix := c.env.Listers.Workloads[kind.Rollout]
	if ref == nil || ix == nil {
		return nil, nil
	}
	obj, ok, _ := ix.GetByKey(run.Namespace + "/" + ref.Name)
	ro, isRollout := obj.(*argo.Rollout)
	if !ok || !isRollout {
		return nil, nil
	}
	var from *argo.RolloutAnalysis
	if cs := ro.Spec.Strategy.Canary; cs != nil {
		switch run.Labels[argo.RolloutTypeLabel] {
		case argo.RunForStep:
			if i, err := strconv.Atoi(run.Labels[argo.StepIndexLabel]); err == nil && i < len(cs.Steps) {
				from = cs.Steps[i].Analysis
			}
		case argo.RunForBackground:
			from = cs.Analysis
		}
	}
	if from != nil {
		for _, t := range from.Templates {
			templates = append(templates, t.TemplateName)
		}
	}
	rss, _ := c.env.Listers.ReplicaSetIndex.ByIndex(control.IndexByController, string(ro.UID))
	for _, o := range rss {
		rs, ok := o.(*appsv1.ReplicaSet)
		if ok && rs.Labels[argo.PodTemplateHashLabel] == run.Labels[argo.PodTemplateHashLabel] {
			for _, ct := range rs.Spec.Template.Spec.Containers {
				images = append(images, ct.Image)
			}
		}
	}
	return templates, images
}
