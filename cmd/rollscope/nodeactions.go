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

// apply gives the console's actions the node keys, on client; live says
// rollscope cannot create the cluster's machines.
func (f *nodeFlags) apply(opts *ui.Options, client kubernetes.Interface, now func() time.Time, live bool) {
	ca, ok := opts.Actions.(*clusterActions)
	if !ok {
		return // --read-only: no actions at all
	}
	opts.Actions = consoleActions{clusterActions: ca, nodeActions: &nodeActions{
		client: client, now: now, defaults: ui.RollDefaults{Step: f.step, DeleteNodes: f.deleteNodes && live, Live: live}}}
}

// consoleActions are every key's actions: the rollout keys' and the node
// keys'.
type consoleActions struct {
	*clusterActions
	*nodeActions
}

// nodeActions is ui.NodeActions over engine/drain and engine/noderoll: the
// requests are annotations on the nodes, which the drain and node-roll
// controllers carry out (the embedded cluster's, or the console's own
// live.Runner on a live cluster).
type nodeActions struct {
	client   kubernetes.Interface
	now      func() time.Time
	defaults ui.RollDefaults
}

func (a *nodeActions) Cordon(ctx context.Context, node string) error {
	return drain.Cordon(ctx, a.client, node)
}

func (a *nodeActions) Uncordon(ctx context.Context, node string) error {
	return drain.Uncordon(ctx, a.client, node)
}

func (a *nodeActions) Drain(ctx context.Context, node string, o ui.DrainOptions) error {
	return drain.Request(ctx, a.client, node, drainOptions(o))
}

func (a *nodeActions) RollDefaults() ui.RollDefaults { return a.defaults }

// drainOptions are the dialog's choices as the engine takes them.
func drainOptions(o ui.DrainOptions) drain.Options {
	return drain.Options{
		GracePeriodSeconds: o.GracePeriodSeconds, Timeout: drain.Duration(o.Timeout), Force: o.Force,
		IgnoreDaemonSets: o.IgnoreDaemonSets, DeleteEmptyDirData: o.DeleteEmptyDirData, DisableEviction: o.DisableEviction,
	}
}

// rollOptions are the roll request as the engine takes it.
func (a *nodeActions) rollOptions(r ui.RollRequest) noderoll.Options {
	o := noderoll.Options{Step: r.Step, Interval: drain.Duration(r.Interval), DeleteNodes: a.defaults.DeleteNodes}
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

// CheckRoll resolves maxSurge and maxUnavailable as the controller will,
// so "150%" is refused with the reason before anything is sent.
func (a *nodeActions) CheckRoll(r ui.RollRequest) (string, error) {
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

func (a *nodeActions) Roll(ctx context.Context, r ui.RollRequest) error {
	err := noderoll.Request(ctx, a.client, r.Group, a.rollOptions(r), a.now())
	if errors.Is(err, action.ErrNothingToDo) {
		return nothingToDo{err}
	}
	return err
}

func (a *nodeActions) SteerRoll(ctx context.Context, group string, s ui.RollSteer) error {
	steer := map[ui.RollSteer]func(context.Context, kubernetes.Interface, string) error{
		ui.RollContinue: noderoll.Continue, ui.RollPause: noderoll.Pause,
		ui.RollResume: noderoll.Resume, ui.RollStop: noderoll.Stop,
	}[s]
	if steer == nil {
		return fmt.Errorf("unknown roll step %d", s)
	}
	if s == ui.RollContinue {
		if resumed, err := a.resumeEnded(ctx, group); resumed {
			return err
		}
	}
	return steer(ctx, a.client, group)
}

// PreviewDrain reads the node, its pods, the budgets and the DaemonSets
// from the API once and runs the drain's own preview on them.
func (a *nodeActions) PreviewDrain(ctx context.Context, node string, o ui.DrainOptions) (ui.DrainPreview, error) {
	l, err := snapshotListers(ctx, a.client, node)
	if err != nil {
		return ui.DrainPreview{}, err
	}
	p, err := drain.PreviewDrain(l, node, drainOptions(o), a.now())
	if err != nil {
		return ui.DrainPreview{}, err
	}
	out := ui.DrainPreview{}
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

func podGroups(gs []drain.Group) []ui.PodGroup {
	out := make([]ui.PodGroup, 0, len(gs))
	for _, g := range gs {
		out = append(out, ui.PodGroup{Message: strings.TrimSpace(g.Message), Pods: g.Pods})
	}
	return out
}
