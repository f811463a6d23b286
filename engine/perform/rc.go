package perform

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/rollingupdate"
	"rollscope/model"
	"rollscope/model/action"
)

// The ReplicationController view's requests are asked of the
// rolling-update controller by annotation, so an update runs wherever that
// controller runs — in the embedded cluster, or in the console's live
// runner against a real one — whether or not the console stays open.

// rcUpdate is the update an rc-update asks for, of controller r.Name.
func rcUpdate(r action.Request) model.RCUpdateRequest {
	u := r.RCUpdate
	if r.Name != "" {
		u.Old = r.Name
	}
	return u
}

// PlanRCUpdate checks the rolling update dialog's fields and works out the
// update, writing nothing; on the embedded cluster, an update whose surge
// this process has not the memory for is refused.
func (c *Cluster) PlanRCUpdate(ctx context.Context, namespace string, in action.RCUpdateInput) (action.RCPlan, error) {
	if err := model.CheckImage(in.Image); err != nil {
		return action.RCPlan{}, err
	}
	surge, err := limitValue("maxSurge", in.MaxSurge)
	if err != nil {
		return action.RCPlan{}, err
	}
	unavailable, err := limitValue("maxUnavailable", in.MaxUnavailable)
	if err != nil {
		return action.RCPlan{}, err
	}
	period, err := time.ParseDuration(in.UpdatePeriod)
	if err != nil || period <= 0 {
		return action.RCPlan{}, fmt.Errorf("update period %q is not a duration — write it as 1m, 30s or 1m30s", in.UpdatePeriod)
	}
	req := model.RCUpdateRequest{Old: in.Name, Image: in.Image, MaxSurge: &surge, MaxUnavailable: &unavailable, UpdatePeriod: model.Duration(period)}
	p, err := rollingupdate.MakePlan(ctx, c.cfg.Client, namespace, req)
	if err != nil {
		return action.RCPlan{}, err
	}
	if err := c.roomForSurge("replicationcontroller/"+in.Name, p.Limits.MaxSurge); err != nil {
		return action.RCPlan{}, err
	}
	return action.RCPlan{Request: p.Request, Next: p.Next, Rename: p.Rename, Container: p.Container, FromImage: p.FromImage,
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
