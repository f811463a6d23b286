package canary

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/engine/actions"
	"rollscope/model"
	"rollscope/model/argo"
)

// Ask is a canary as the operator asks for it: the template change (an
// image or one variable) and the steps.
type Ask struct {
	Container string
	// Image is the container's new image; or Env is NAME=value (NAME- to
	// remove NAME), as kubectl set env writes it.
	Image, Env string
	// Steps are pod counts or percentages ("1", "10%"); Holds one hold for
	// all steps before 100% or one each ("pause", "2m").
	Steps, Holds []string
	OnFailure    string
	// Gates are the metric gates every step before 100% is judged by, with
	// GateTemplates the template each came from ("" when written out):
	// the plan carries them (model.CanaryPlan.Gates).
	Gates         []argo.Metric
	GateTemplates []string
	// ChangeCause, when set, is recorded in kubernetes.io/change-cause with
	// the change, as set image --record does.
	ChangeCause string
}

// Change is the ask's template change in kubectl's words.
func (a Ask) Change() string {
	if a.Image != "" {
		return "set image " + a.Container + "=" + a.Image
	}
	return "set env " + a.Container + " " + a.Env
}

// Plan resolves a against d: the canary's plan and d as step 1 leaves it
// (template changed, step 1 held), without writing anything. It refuses a
// Deployment a canary cannot start on and a change that changes nothing.
func Plan(d *appsv1.Deployment, a Ask, now time.Time) (model.Canary, *appsv1.Deployment, error) {
	if err := model.CheckCanaryStart(d); err != nil {
		return model.Canary{}, nil, err
	}
	onFailure, err := model.CheckCanaryOnFailure(a.OnFailure)
	if err != nil {
		return model.Canary{}, nil, err
	}
	replicas := model.DesiredReplicas(d)
	steps, err := model.ResolveCanarySteps(a.Steps, a.Holds, replicas)
	if err != nil {
		return model.Canary{}, nil, err
	}
	u := d.DeepCopy()
	if err := change(u, a); err != nil {
		return model.Canary{}, nil, err
	}
	if model.EqualIgnoreHash(&u.Spec.Template, &d.Spec.Template) {
		return model.Canary{}, nil, fmt.Errorf("%s changes nothing in deployment/%s: a canary needs a new template", a.Change(), d.Name)
	}
	c := model.Canary{
		Plan: model.CanaryPlan{Change: a.Change(), Replicas: replicas, Steps: steps, OnFailure: onFailure,
			Original: model.CanaryOriginalOf(d), Template: model.PodTemplateHash(&u.Spec.Template, nil),
			Gates: a.Gates, GateTemplates: a.GateTemplates},
		State: model.CanaryState{Step: 1, Phase: model.CanaryHolding, Since: now},
	}
	model.HoldCanaryStep(u, steps[0].Pods)
	if u.Annotations == nil {
		u.Annotations = map[string]string{}
	}
	if a.ChangeCause != "" {
		u.Annotations[model.ChangeCauseAnnotation] = a.ChangeCause
	}
	c.Write(&u.ObjectMeta)
	return c, u, nil
}

// change applies the ask's template change to d.
func change(d *appsv1.Deployment, a Ask) error {
	var ct *corev1.Container
	var names []string
	for i := range d.Spec.Template.Spec.Containers {
		names = append(names, d.Spec.Template.Spec.Containers[i].Name)
		if d.Spec.Template.Spec.Containers[i].Name == a.Container {
			ct = &d.Spec.Template.Spec.Containers[i]
		}
	}
	if ct == nil {
		return fmt.Errorf("deployment/%s has no container %q (containers: %s)", d.Name, a.Container, strings.Join(names, ", "))
	}
	if a.Image != "" {
		if err := model.CheckImage(a.Image); err != nil {
			return err
		}
		ct.Image = a.Image
		return nil
	}
	if n, ok := strings.CutSuffix(a.Env, "-"); ok && !strings.Contains(a.Env, "=") {
		kept := ct.Env[:0]
		for _, e := range ct.Env {
			if e.Name != n {
				kept = append(kept, e)
			}
		}
		ct.Env = kept
		return nil
	}
	name, value, ok := strings.Cut(a.Env, "=")
	if !ok {
		return fmt.Errorf("a canary changes an image or one variable: write NAME=value, or NAME- to remove it")
	}
	if err := model.CheckEnvName(name); err != nil {
		return err
	}
	for i := range ct.Env {
		if ct.Env[i].Name == name {
			ct.Env[i] = corev1.EnvVar{Name: name, Value: value}
			return nil
		}
	}
	ct.Env = append(ct.Env, corev1.EnvVar{Name: name, Value: value})
	return nil
}

// advance returns d moved to step k of its canary c (the last step puts
// the Deployment's own settings back and leaves the rest to it).
func advance(d *appsv1.Deployment, c model.Canary, k int, now time.Time) *appsv1.Deployment {
	u := d.DeepCopy()
	k = min(k, c.Plan.Last())
	c.State = model.CanaryState{Step: k, Phase: model.CanaryHolding, Since: now}
	if k == c.Plan.Last() {
		c.Plan.Original.Restore(u)
		c.State.Phase = model.CanaryRolling
	} else {
		model.HoldCanaryStep(u, c.Plan.Step(k).Pods)
	}
	c.Write(&u.ObjectMeta)
	return u
}

// fail returns d with its canary c held at its step, failed by gate.
func fail(d *appsv1.Deployment, c model.Canary, gate string) *appsv1.Deployment {
	return hold(d, c, model.CanaryFailed, gate)
}

// hold returns d with its canary c held at its step in phase (failed or
// inconclusive), with why as the evidence.
func hold(d *appsv1.Deployment, c model.Canary, phase, why string) *appsv1.Deployment {
	u := d.DeepCopy()
	c.State.Phase, c.State.Gate = phase, why
	c.Write(&u.ObjectMeta)
	return u
}

// end returns d with the canary's annotations gone; restore puts the
// Deployment's own settings back too (a canary ended by something else).
func end(d *appsv1.Deployment, c model.Canary, restore bool) *appsv1.Deployment {
	u := d.DeepCopy()
	if restore {
		c.Plan.Original.Restore(u)
	}
	model.DropCanary(&u.ObjectMeta)
	return u
}

// rollBack returns d back on its stable revision as x does, with the
// Deployment's own settings restored and the canary's annotations gone.
func rollBack(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, c model.Canary) (*appsv1.Deployment, model.Abort, error) {
	stable, aborted, err := actions.StableReplicaSet(d, rss)
	if err != nil {
		return nil, model.Abort{}, err
	}
	back, _ := model.Revision(stable)
	done := model.Abort{Revision: aborted, Back: back}
	u := d.DeepCopy()
	u.Spec.Template = model.TemplateFromReplicaSet(stable)
	u.Spec.Paused = false
	c.Plan.Original.Restore(u)
	u.Annotations = model.DeploymentAnnotationsFrom(d, stable)
	if u.Annotations == nil {
		u.Annotations = map[string]string{}
	}
	// The stable ReplicaSet may carry an earlier canary's annotations,
	// copied onto it by the deployment controller back then.
	model.DropCanary(&u.ObjectMeta)
	done.Annotate(u.Annotations)
	return u, done, nil
}
