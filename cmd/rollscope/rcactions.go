package main

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/actions"
	"rollscope/engine/rollingupdate"
	"rollscope/model"
	"rollscope/ui"
)

// The ReplicationController view's keys (ui.RCActions): an update is asked of
// the rolling-update controller by annotation, so it runs wherever that
// controller runs — in the embedded cluster, or in this process's live
// runner against a real one.

// PlanRCUpdate checks the dialog's fields and works out the update.
func (a *clusterActions) PlanRCUpdate(ctx context.Context, namespace string, in ui.RCUpdateInput) (ui.RCPlan, error) {
	if err := actions.CheckImage(in.Image); err != nil {
		return ui.RCPlan{}, err
	}
	surge, err := limitValue("maxSurge", in.MaxSurge)
	if err != nil {
		return ui.RCPlan{}, err
	}
	unavailable, err := limitValue("maxUnavailable", in.MaxUnavailable)
	if err != nil {
		return ui.RCPlan{}, err
	}
	period, err := time.ParseDuration(in.UpdatePeriod)
	if err != nil || period <= 0 {
		return ui.RCPlan{}, fmt.Errorf("update period %q is not a duration — write it as 1m, 30s or 1m30s", in.UpdatePeriod)
	}
	req := model.RCUpdateRequest{Old: in.Name, Image: in.Image, MaxSurge: &surge, MaxUnavailable: &unavailable, UpdatePeriod: model.Duration(period)}
	p, err := rollingupdate.MakePlan(ctx, a.client, namespace, req)
	if err != nil {
		return ui.RCPlan{}, err
	}
	return ui.RCPlan{Request: p.Request, Next: p.Next, Rename: p.Rename, Container: p.Container, FromImage: p.FromImage,
		Replicas: p.Replicas, Limits: p.Limits, UpdatePeriod: period}, nil
}

// limitValue reads maxSurge or maxUnavailable: a count or a percentage.
func limitValue(name, text string) (intstr.IntOrString, error) {
	v := intstr.Parse(text)
	if v.Type == intstr.String {
		if _, err := intstr.GetScaledValueFromIntOrPercent(&v, 100, true); err != nil {
			return v, fmt.Errorf("%s %q is neither a count nor a percentage — write 1 or 25%%", name, text)
		}
	} else if v.IntVal < 0 {
		return v, fmt.Errorf("%s %q is negative — write 0 or more", name, text)
	}
	return v, nil
}

// StartRCUpdate asks for the update.
func (a *clusterActions) StartRCUpdate(ctx context.Context, namespace string, req model.RCUpdateRequest) error {
	return rollingupdate.Ask(ctx, a.client, namespace, req)
}

// AbortRCUpdate asks for the update's rollback.
func (a *clusterActions) AbortRCUpdate(ctx context.Context, namespace, name string) error {
	return rollingupdate.AskAbort(ctx, a.client, namespace, name)
}
