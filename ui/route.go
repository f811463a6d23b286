package ui

import (
	"rollscope/ui/pages/rc"
	"rollscope/ui/pages/rollout"
	"rollscope/ui/pages/workload"
	"rollscope/ui/screen"
)

// router builds the page a target shows: an RC's, a StatefulSet's or a
// DaemonSet's page over the rollout page, or the rollout page itself
// pointed at a Deployment. The one rollout page is kept for the console's
// life: its panes' focus and a node roll's progress outlive a visit to the
// fleet.
type router struct {
	s       *screen.Screen
	rollout *rollout.Page
}

func (r router) page(t screen.Target) screen.Page {
	switch {
	case t.RC != "":
		return rc.NewPage(r.s, r.rollout, t.Namespace, t.RC)
	case t.Workload != "":
		return workload.NewPage(r.s, r.rollout, t.WorkloadKind, t.Namespace, t.Workload)
	}
	r.rollout.Show(t.Namespace, t.Deployment)
	return r.rollout
}
