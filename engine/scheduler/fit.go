package scheduler

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Why a node was filtered out, worded as kube-scheduler's plugins word it so
// that the console shows what an operator would see on a real cluster.
const (
	reasonUnschedulable = "node(s) were unschedulable"
	reasonNotReady      = "node(s) were not ready"
	reasonAffinity      = "node(s) didn't match Pod's node affinity/selector"
	reasonTooManyPods   = "Too many pods"
	reasonCPU           = "Insufficient cpu"
	reasonMemory        = "Insufficient memory"
)

// The taints that stand for a cordoned and a NotReady node. A pod that
// tolerates them (DaemonSet pods do) may go there anyway.
var (
	unschedulableTaint = corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}
	notReadyTaint      = corev1.Taint{Key: corev1.TaintNodeNotReady, Effect: corev1.TaintEffectNoSchedule}
)

// demand is a pod prepared for one scheduling attempt.
type demand struct {
	kind        string // signature: pods of one kind share a ranking
	requests    amount
	choice      nodeChoice
	tolerations []corev1.Toleration
}

func newDemand(p *corev1.Pod) *demand {
	r := podRequests(p)
	return &demand{kind: signature(p, r), requests: r, choice: newNodeChoice(p), tolerations: p.Spec.Tolerations}
}

// reject appends to why the reasons node st cannot take d, in the order
// kube-scheduler's filters run (and, like them, stopping at the first filter
// that fails, except that every insufficient resource is named). It appends
// nothing when the pod fits.
func (c *nodeCache) reject(d *demand, st *nodeState, why []string) []string {
	n := st.node
	if n.Spec.Unschedulable && !toleratedBy(d.tolerations, &unschedulableTaint) {
		return append(why, reasonUnschedulable)
	}
	if !st.ready && !toleratedBy(d.tolerations, &notReadyTaint) {
		return append(why, reasonNotReady)
	}
	if t := firstUntolerated(n.Spec.Taints, d.tolerations, corev1.TaintEffectNoSchedule, corev1.TaintEffectNoExecute); t != nil {
		return append(why, fmt.Sprintf("node(s) had untolerated taint {%s: %s}", t.Key, t.Value))
	}
	if !d.choice.matches(n) {
		return append(why, reasonAffinity)
	}
	free := st.allocatable.minus(*st.used)
	if free.pods < 1 {
		why = append(why, reasonTooManyPods)
	}
	if d.requests.cpu > 0 && d.requests.cpu > free.cpu {
		why = append(why, reasonCPU)
	}
	if d.requests.memory > 0 && d.requests.memory > free.memory {
		why = append(why, reasonMemory)
	}
	return why
}

// score ranks a node that passed the filters; lower is better.
type score struct {
	preferTaints int     // untolerated PreferNoSchedule taints
	load         float64 // requested cpu + memory fractions, with the pod
	pods         int64
	name         string
}

func (a score) better(b score) bool {
	if a.preferTaints != b.preferTaints {
		return a.preferTaints < b.preferTaints
	}
	if a.load != b.load {
		return a.load < b.load
	}
	if a.pods != b.pods {
		return a.pods < b.pods
	}
	return a.name < b.name
}

func fraction(used, total int64) float64 {
	if total <= 0 {
		if used > 0 {
			return 1
		}
		return 0
	}
	return float64(used) / float64(total)
}

func (c *nodeCache) score(d *demand, st *nodeState) score {
	after := st.used.plus(d.requests)
	return score{
		preferTaints: countUntolerated(st.node.Spec.Taints, d.tolerations, corev1.TaintEffectPreferNoSchedule),
		load:         fraction(after.cpu, st.allocatable.cpu) + fraction(after.memory, st.allocatable.memory),
		pods:         after.pods,
		name:         st.node.Name,
	}
}

// pick returns the best node for d, or "" and how many nodes failed for
// each reason. The ranking answers when a node fits; the reasons, needed
// only when none does, come from a walk over every node.
func (c *nodeCache) pick(d *demand) (string, map[string]int) {
	if name := c.rankingFor(d).best(); name != "" {
		return name, nil
	}
	return c.walk(d)
}

// walk is pick without the ranking: every node filtered and scored, in name
// order.
func (c *nodeCache) walk(d *demand) (string, map[string]int) {
	var best score
	found := false
	var reasons map[string]int
	var why []string
	for _, st := range c.order {
		why = c.reject(d, st, why[:0])
		if len(why) > 0 {
			if reasons == nil {
				reasons = map[string]int{}
			}
			for _, r := range why {
				reasons[r]++
			}
			continue
		}
		s := c.score(d, st)
		if !found || s.better(best) {
			best, found = s, true
		}
	}
	if !found {
		return "", reasons
	}
	return best.name, nil
}

// unschedulableMessage words a failure as kube-scheduler's FitError does:
// "0/6 nodes are available: 3 Insufficient cpu, 3 node(s) were
// unschedulable." with the "count reason" parts in string order.
func unschedulableMessage(nodes int, reasons map[string]int) string {
	if nodes == 0 {
		return "no nodes available to schedule pods"
	}
	parts := make([]string, 0, len(reasons))
	for r, n := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(parts)
	return fmt.Sprintf("0/%d nodes are available: %s.", nodes, strings.Join(parts, ", "))
}
