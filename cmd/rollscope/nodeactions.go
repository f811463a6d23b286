package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/drain"
	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/model/action"
	"rollscope/ui"
)

// nodeFlags are the console's flags for node drains and rolls.
type nodeFlags struct {
	step, deleteNodes bool
}

func (f *nodeFlags) addTo(fs *pflag.FlagSet) {
	fs.BoolVar(&f.step, "step", false, "node-group rolls (D) start stepped: the roll waits for n after every node")
	fs.BoolVar(&f.deleteNodes, "delete-nodes", false,
		"live cluster: a node-group roll deletes each drained Node object so your own machinery replaces it "+
			"(without it the node is left drained and cordoned, and the roll waits for replacement capacity); "+
			"the embedded cluster always replaces nodes")
}

// apply sets the roll dialog's defaults; live says rollscope cannot create
// the cluster's machines.
func (f *nodeFlags) apply(opts *ui.Options, live bool) {
	opts.RollDefaults = action.RollDefaults{Step: f.step, DeleteNodes: f.deleteNodes && live, Live: live}
}

// nodeActions sends the node keys' requests over engine/drain and
// engine/noderoll: the requests are annotations on the nodes, which the
// drain and node-roll controllers carry out (the embedded cluster's, or the
// console's own live.Runner on a live cluster).
type nodeActions struct {
	client kubernetes.Interface
	now    func() time.Time
	// deleteNodes makes a roll delete each drained Node object.
	deleteNodes bool
}

// check refuses a roll's settings the controller would refuse.
func (a *nodeActions) check(r action.Request) error {
	if r.Action != action.RollGroup {
		return nil
	}
	_, err := a.PlanRoll(r.Name, r.Roll)
	return err
}

// send sends r and says what happened. Requests on several nodes go one
// node at a time; when one fails, the error says which nodes were done and
// which were left untouched, so nothing is half-done without saying so.
func (a *nodeActions) send(ctx context.Context, r action.Request) (string, error) {
	result, err := a.sendOnce(ctx, r)
	if err != nil {
		return "", err
	}
	return result, nil
}

// sendOnce sends r and says what its result reads as when it succeeds.
func (a *nodeActions) sendOnce(ctx context.Context, r action.Request) (string, error) {
	switch r.Action {
	case action.Cordon:
		return "ok", eachNode(ctx, r.Nodes, func(ctx context.Context, n string) error { return drain.Cordon(ctx, a.client, n) })
	case action.Uncordon:
		return "ok", eachNode(ctx, r.Nodes, func(ctx context.Context, n string) error { return drain.Uncordon(ctx, a.client, n) })
	case action.Drain:
		o := drainOptions(r.Drain)
		return "requested — the Nodes pane shows its progress",
			eachNode(ctx, r.Nodes, func(ctx context.Context, n string) error { return drain.Request(ctx, a.client, n, o) })
	case action.RollGroup:
		return "requested", a.roll(ctx, r.Name, r.Roll)
	case action.NextStep:
		if resumed, err := a.resumeEnded(ctx, r.Name); resumed {
			return "ok", err
		}
		return "ok", noderoll.Continue(ctx, a.client, r.Name)
	case action.PauseRoll:
		if r.ResumeRoll {
			return "ok", noderoll.Resume(ctx, a.client, r.Name)
		}
		return "ok", noderoll.Pause(ctx, a.client, r.Name)
	case action.StopRoll:
		return "stopped; drained nodes stay cordoned", noderoll.Stop(ctx, a.client, r.Name)
	}
	return "", fmt.Errorf("unknown node action %q", r.Action)
}

// eachNode calls do on every node in order and stops at the first failure,
// naming the nodes done before it and those not sent.
func eachNode(ctx context.Context, nodes []string, do func(context.Context, string) error) error {
	for i, n := range nodes {
		if err := do(ctx, n); err != nil {
			if i == 0 {
				return err
			}
			left := ""
			if rest := nodes[i+1:]; len(rest) > 0 {
				left = "; not sent for " + strings.Join(rest, ", ")
			}
			return fmt.Errorf("%w — done for %s%s", err, strings.Join(nodes[:i], ", "), left)
		}
	}
	return nil
}

// drainOptions are the dialog's choices as the engine takes them.
func drainOptions(o action.DrainOptions) drain.Options {
	return drain.Options{
		GracePeriodSeconds: o.GracePeriodSeconds, Timeout: drain.Duration(o.Timeout), Force: o.Force,
		IgnoreDaemonSets: o.IgnoreDaemonSets, DeleteEmptyDirData: o.DeleteEmptyDirData, DisableEviction: o.DisableEviction,
	}
}

// rollOptions are the roll's settings as the engine takes them.
func (a *nodeActions) rollOptions(r action.RollSettings) noderoll.Options {
	o := noderoll.Options{Step: r.Step, Interval: drain.Duration(r.Interval), DeleteNodes: a.deleteNodes}
	if r.MaxSurge != "" {
		v := intstr.Parse(r.MaxSurge)
		o.MaxSurge = &v
	}
	if r.MaxUnavailable != "" {
		v := intstr.Parse(r.MaxUnavailable)
		o.MaxUnavailable = &v
	}
	return o
}

// PlanRoll resolves maxSurge and maxUnavailable as the controller will,
// so "150%" is refused with the reason before anything is sent.
func (a *nodeActions) PlanRoll(_ string, r action.RollSettings) (string, error) {
	o := a.rollOptions(r)
	if o.MaxSurge == nil && o.MaxUnavailable == nil {
		if r.Step {
			return fmt.Sprintf("%d outdated nodes, one at a time (the group's own surge and unavailability, at most one surge node when stepping)", r.Outdated), nil
		}
		return fmt.Sprintf("%d outdated nodes, with the group's own maxSurge and maxUnavailable (kops' defaults: no surge, one node at a time)", r.Outdated), nil
	}
	s, err := noderoll.Resolve(o.MaxSurge, o.MaxUnavailable, r.Size)
	if err != nil {
		return "", err
	}
	if s.MaxSurge == 0 && s.MaxUnavailable == 0 {
		return "", errors.New("maxSurge and maxUnavailable are both 0, so no node could ever be replaced (raise one of them)")
	}
	surge, concurrency := s.Concurrency(nodegroup.RoleNode, r.Outdated, r.Step)
	return fmt.Sprintf("%d outdated nodes, %d at a time, %d of them surged first (maxSurge %s → %d, maxUnavailable %s → %d of %d nodes; control-plane groups never surge)",
		r.Outdated, concurrency, surge, orGroup(r.MaxSurge), s.MaxSurge, orGroup(r.MaxUnavailable), s.MaxUnavailable, r.Size), nil
}

func orGroup(v string) string {
	if v == "" {
		return "unset"
	}
	return v
}

func (a *nodeActions) roll(ctx context.Context, group string, r action.RollSettings) error {
	err := noderoll.Request(ctx, a.client, group, a.rollOptions(r), a.now())
	if errors.Is(err, actions.ErrNothingToDo) {
		return nothingToDo{err}
	}
	return err
}

// PreviewDrain reads the node, its pods, the budgets and the DaemonSets
// from the API once and runs the drain's own preview on them.
func (a *nodeActions) PreviewDrain(ctx context.Context, node string, o action.DrainOptions) (action.DrainPreview, error) {
	l, err := snapshotListers(ctx, a.client, node)
	if err != nil {
		return action.DrainPreview{}, err
	}
	p, err := drain.PreviewDrain(l, node, drainOptions(o), a.now())
	if err != nil {
		return action.DrainPreview{}, err
	}
	out := action.DrainPreview{}
	for _, pod := range p.Plan.Evict {
		out.Evict = append(out.Evict, pod.Namespace+"/"+pod.Name)
	}
	for _, b := range p.Budgets {
		out.Budgets = append(out.Budgets, b.String())
	}
	for _, b := range p.Blocked {
		out.Blocked = append(out.Blocked, b.String())
	}
	out.Warnings, out.Refusals = podGroups(p.Plan.Warnings), podGroups(p.Plan.Refusals)
	return out, nil
}

func podGroups(gs []drain.Group) []action.PodGroup {
	out := make([]action.PodGroup, 0, len(gs))
	for _, g := range gs {
		out = append(out, action.PodGroup{Message: strings.TrimSpace(g.Message), Pods: g.Pods})
	}
	return out
}
