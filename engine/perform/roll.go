package perform

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/drain"
	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/model"
	"rollscope/model/action"
)

// rollOptions are a roll's settings as the node-roll controller takes
// them; "" leaves the group's own surge or unavailability.
func (c *Cluster) rollOptions(s action.RollSettings) noderoll.Options {
	o := noderoll.Options{
		Step: s.Step, Interval: drain.Duration(s.Interval), DeleteNodes: c.cfg.DeleteNodes,
		DrainTimeout: drain.Duration(s.DrainTimeout), ValidationTimeout: drain.Duration(s.ValidationTimeout),
	}
	if s.MaxSurge != "" {
		v := intstr.Parse(s.MaxSurge)
		o.MaxSurge = &v
	}
	if s.MaxUnavailable != "" {
		v := intstr.Parse(s.MaxUnavailable)
		o.MaxUnavailable = &v
	}
	return o
}

// PlanRoll resolves maxSurge and maxUnavailable as the controller will,
// so "150%" is refused with the reason before anything is sent, and
// otherwise says in one sentence what the roll of group will do.
func (c *Cluster) PlanRoll(group string, s action.RollSettings) (string, error) {
	o := c.rollOptions(s)
	// What the dialog leaves blank the controller takes from the group.
	for _, g := range c.cfg.Groups {
		if g.Name == group {
			if o.MaxSurge == nil && g.MaxSurge != nil {
				o.MaxSurge, s.MaxSurge = g.MaxSurge, "the group's "+g.MaxSurge.String()
			}
			if o.MaxUnavailable == nil && g.MaxUnavailable != nil {
				o.MaxUnavailable, s.MaxUnavailable = g.MaxUnavailable, "the group's "+g.MaxUnavailable.String()
			}
		}
	}
	if o.MaxSurge == nil && o.MaxUnavailable == nil {
		if s.Step {
			return model.Plural(s.Outdated, "outdated node") + ", one at a time (the group's own surge and unavailability, at most one surge node when stepping)", nil
		}
		return model.Plural(s.Outdated, "outdated node") + ", one at a time, none surged (the group sets no maxSurge or maxUnavailable: kops' defaults)", nil
	}
	set, err := noderoll.Resolve(o.MaxSurge, o.MaxUnavailable, s.Size)
	if err != nil {
		return "", err
	}
	if set.MaxSurge == 0 && set.MaxUnavailable == 0 {
		return "", errors.New("maxSurge and maxUnavailable are both 0, so no node could ever be replaced (raise one of them)")
	}
	surge, concurrency := set.Concurrency(nodegroup.RoleNode, s.Outdated, s.Step)
	return fmt.Sprintf("%s, %d at a time, %d of them surged first (maxSurge %s → %d, maxUnavailable %s → %d of %d nodes; control-plane groups never surge)",
		model.Plural(s.Outdated, "outdated node"), concurrency, surge, orGroup(s.MaxSurge), set.MaxSurge, orGroup(s.MaxUnavailable), set.MaxUnavailable, s.Size), nil
}

func orGroup(v string) string {
	if v == "" {
		return "unset"
	}
	return v
}
