package perform

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/drain"
	"rollscope/model/action"
)

// eachNode sends one node's request for every node of r, one at a time.
// When one fails, the error says which nodes were done and which were not
// sent, so nothing is half-done without saying so.
func (c *Cluster) eachNode(ctx context.Context, r action.Request, words string, send func(context.Context, kubernetes.Interface, string) error) (string, error) {
	if len(r.Nodes) == 0 {
		return "", fmt.Errorf("%s names no node — pick one in the Nodes pane, or mark several with m", r.Action)
	}
	for i, n := range r.Nodes {
		if err := send(ctx, c.cfg.Client, n); err != nil {
			if i == 0 {
				return "", err
			}
			left := ""
			if rest := r.Nodes[i+1:]; len(rest) > 0 {
				left = "; not sent for " + strings.Join(rest, ", ")
			}
			return "", fmt.Errorf("%w — done for %s%s", err, strings.Join(r.Nodes[:i], ", "), left)
		}
	}
	return words, nil
}

// drainOptions are the dialog's choices as the drain controller takes
// them.
func drainOptions(o action.DrainOptions) drain.Options {
	return drain.Options{
		GracePeriodSeconds: o.GracePeriodSeconds, Timeout: drain.Duration(o.Timeout), Force: o.Force,
		IgnoreDaemonSets: o.IgnoreDaemonSets, DeleteEmptyDirData: o.DeleteEmptyDirData, DisableEviction: o.DisableEviction,
	}
}

// PreviewDrain says what draining node with o would do, from the node,
// its pods, the budgets and the DaemonSets as the API holds them now. It
// changes nothing.
func (c *Cluster) PreviewDrain(ctx context.Context, node string, o action.DrainOptions) (action.DrainPreview, error) {
	p, err := drain.PreviewFromAPI(ctx, c.cfg.Client, node, drainOptions(o), c.cfg.Now())
	if err != nil {
		return action.DrainPreview{}, err
	}
	out := action.DrainPreview{Cordoned: p.Cordoned, State: p.State}
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
